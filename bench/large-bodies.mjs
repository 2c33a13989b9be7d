#!/usr/bin/env node
/**
 * Memory and latency under large request bodies: starts the reference server, samples its
 * resident memory (VmRSS in /proc/<pid>/status), and sends
 *   1. one anonymous 50 MB multipart POST,
 *   2. eight anonymous 50 MB JSON POSTs at once, while timing GET /version,
 *   3. one authenticated 50 MB JSON POST of a CI variable (declared length, then chunked).
 * Bodies are generated as they are sent, so the client holds none of them whole.
 * Linux only (it reads /proc).
 *
 * Options: --size-mb <n> (50)  --parallel <n> (8)  --interval-ms <n> (20)
 */
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runOwned } from './lib/children.mjs';
import { startForgekit } from './lib/servers.mjs';

const { values: options } = parseArgs({
  options: {
    'size-mb': { type: 'string', default: '50' },
    parallel: { type: 'string', default: '8' },
    'interval-ms': { type: 'string', default: '20' },
  },
});
const size = Number(options['size-mb']) * 1024 * 1024;
const parallel = Number(options.parallel);
const intervalMs = Number(options['interval-ms']);
const progress = (message) => process.stderr.write(`${message}\n`);
const mib = (kib) => (kib / 1024).toFixed(1);

function rssKib(pid) {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) : 0;
}

async function sampled(pid, work) {
  const before = rssKib(pid);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rssKib(pid))), intervalMs);
  try {
    return { result: await work(), before, peak: Math.max(peak, rssKib(pid)) };
  } finally {
    clearInterval(timer);
  }
}

/**
 * POSTs `total` bytes made of `head`, filler and `tail`, written in 64 KiB chunks as the
 * socket takes them; resolves with the status, or `closed` when the server hung up first.
 */
function send(url, { headers, head, tail, total, declareLength = true }) {
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', headers: declareLength ? { ...headers, 'Content-Length': String(total) } : headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(String(res.statusCode)));
    });
    req.on('error', () => resolve('closed'));
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let left = total - head.length - tail.length;
    req.write(head);
    const pump = () => {
      while (left > 0) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= piece.length;
        if (!req.write(piece)) return req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}

async function versionLatencies(server, stopWhen) {
  const times = [];
  while (!stopWhen.done) {
    const started = performance.now();
    await fetch(`${server.url}/api/v4/version`, { headers: { 'PRIVATE-TOKEN': server.rootToken } }).then((res) => res.arrayBuffer());
    times.push(performance.now() - started);
  }
  return times;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : Number.NaN;
};

async function main() {
  progress('starting the reference server (SQLite)...');
  const server = await startForgekit();
  const pid = server.child.pid;
  const api = `${server.url}/api/v4`;
  const rows = [];

  const atRest = { done: false };
  setTimeout(() => (atRest.done = true), 1000);
  const restLatency = median(await versionLatencies(server, atRest));

  const boundary = 'bench-boundary';
  const multipart = await sampled(pid, () =>
    send(`${api}/projects`, {
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      head: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      tail: `\r\n--${boundary}--\r\n`,
      total: size,
    }),
  );
  rows.push(['1 anonymous multipart POST', multipart, multipart.result]);

  const loaded = { done: false };
  const latencies = versionLatencies(server, loaded);
  const json = await sampled(pid, async () => {
    const statuses = await Promise.all(
      Array.from({ length: parallel }, () =>
        send(`${api}/projects`, { headers: { 'Content-Type': 'application/json' }, head: '{"name":"', tail: '"}', total: size }),
      ),
    );
    loaded.done = true;
    return statuses.join(',');
  });
  const loadedLatency = median(await latencies);
  rows.push([`${parallel} anonymous JSON POSTs at once`, json, json.result]);

  const project = await (
    await fetch(`${api}/projects`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': server.rootToken, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'bodies' }),
    })
  ).json();
  for (const declareLength of [true, false]) {
    const variable = await sampled(pid, () =>
      send(`${api}/projects/${project.id}/variables`, {
        headers: { 'Content-Type': 'application/json', 'PRIVATE-TOKEN': server.rootToken },
        head: '{"key":"BIG","value":"',
        tail: '"}',
        total: size,
        declareLength,
      }),
    );
    rows.push([`authenticated variable, ${declareLength ? 'Content-Length' : 'chunked'}`, variable, variable.result]);
  }
  const listed = await fetch(`${api}/projects/${project.id}/variables`, { headers: { 'PRIVATE-TOKEN': server.rootToken } }).catch((error) => error);
  if (listed instanceof Error) throw new Error(`the server stopped answering: ${listed.message}\n${readFileSync(server.logFile, 'utf8').slice(-3000)}`);
  const stored = await listed.json();

  process.stdout.write(`bodies of ${size / 1024 / 1024} MiB; server RSS (VmRSS) sampled every ${intervalMs} ms, in MiB\n`);
  process.stdout.write('case                                      status(es)             RSS before  peak  growth\n');
  for (const [name, row, status] of rows) {
    process.stdout.write(
      `${name.padEnd(42)}${String(status).padEnd(23)}${mib(row.before).padStart(10)}${mib(row.peak).padStart(7)}${mib(row.peak - row.before).padStart(8)}\n`,
    );
  }
  process.stdout.write(`GET /version median: ${restLatency.toFixed(1)} ms at rest, ${loadedLatency.toFixed(1)} ms during the ${parallel} JSON bodies\n`);
  process.stdout.write(`variables stored for the project: ${stored.length}\n`);
}

runOwned(main);
