/**
 * Markdown uploads of 10 MB through `POST /projects/:id/uploads`: throughput in MB/s and the
 * server's resident memory (VmRSS from /proc/<pid>/status, Linux) at rest and at its peak,
 * then one body past `max_attachment_size`, which must be refused with 413 while it streams.
 * Bodies are generated as the socket takes them, so the client holds none of them whole.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';

export const UPLOADS_NAME = 'POST /projects/:id/uploads (10 MB)';

const MB = 1_000_000;
const MIB = 1024 * 1024;

/** The process's resident memory (VmRSS), or null where /proc does not tell. */
export function rssBytes(pid) {
  const file = `/proc/${pid}/status`;
  if (!existsSync(file)) return null;
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(file, 'utf8'));
  return match ? Number(match[1]) * 1024 : null;
}

/** Samples the process's RSS while `work` runs: the value before, and the highest seen. */
async function sampled(pid, intervalMs, work) {
  const before = rssBytes(pid);
  let peak = before;
  const sample = () => {
    const now = rssBytes(pid);
    if (now !== null) peak = Math.max(peak ?? 0, now);
  };
  const timer = setInterval(sample, intervalMs);
  try {
    const result = await work();
    sample();
    return { result, before, peak };
  } finally {
    clearInterval(timer);
  }
}

/** One multipart upload of `size` bytes; resolves with the status (or `closed` when the connection ended with no answer). */
function upload(url, token, size, { declareLength = true } = {}) {
  const boundary = 'forgekit-bench';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const headers = { 'PRIVATE-TOKEN': token, 'Content-Type': `multipart/form-data; boundary=${boundary}` };
  if (declareLength) headers['Content-Length'] = String(head.length + size + tail.length);
  return new Promise((resolve) => {
    let done = false;
    const finish = (status) => {
      if (done) return;
      done = true;
      resolve(status);
      req.destroy();
    };
    // The status counts as soon as it arrives: a server that refuses a body mid-way closes the
    // connection after answering, and the client may see the reset before the answer's end.
    const req = request(url, { method: 'POST', headers }, (res) => {
      if (res.statusCode !== 201) return finish(String(res.statusCode));
      res.resume();
      res.on('end', () => finish(String(res.statusCode)));
    });
    req.on('error', () => finish('closed'));
    const chunk = randomBytes(64 * 1024);
    let left = size;
    req.write(head);
    const pump = () => {
      while (left > 0 && !done) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      if (!done) req.end(tail);
    };
    pump();
  });
}

/** Sequential 10 MB uploads for `durationSeconds` (three at least), then one body past a 10 MiB limit. */
export async function measureUploads(server, ctx, { durationSeconds, intervalMs = 10, sizeBytes = 10 * MB }) {
  const pid = server.child.pid;
  const project = await ctx.api.post('/projects', { name: 'Bench uploads', path: 'bench-uploads', namespace_id: ctx.group.id });
  const url = `${server.url}/api/v4/projects/${project.id}/uploads`;
  // Warm up the route once, so the numbers are of uploads, not of the first request.
  await upload(url, server.rootToken, 1024);

  const kept = await sampled(pid, intervalMs, async () => {
    const statuses = {};
    const started = performance.now();
    let count = 0;
    while (count < 3 || performance.now() - started < durationSeconds * 1000) {
      const status = await upload(url, server.rootToken, sizeBytes);
      statuses[status] = (statuses[status] ?? 0) + 1;
      count++;
    }
    return { count, seconds: (performance.now() - started) / 1000, statuses };
  });

  await ctx.api.put('/application/settings', { max_attachment_size: 10 });
  let refused;
  try {
    refused = await sampled(pid, intervalMs, () => upload(url, server.rootToken, 100 * MIB, { declareLength: false }));
  } finally {
    await ctx.api.put('/application/settings', { max_attachment_size: 100 });
  }
  return {
    sizeBytes,
    uploads: kept.result.count,
    seconds: kept.result.seconds,
    statuses: kept.result.statuses,
    mbPerSecond: (kept.result.count * sizeBytes) / MB / kept.result.seconds,
    rssBefore: kept.before,
    rssPeak: kept.peak,
    overLimit: { sizeBytes: 100 * MIB, limitBytes: 10 * MIB, status: refused.result, rssBefore: refused.before, rssPeak: refused.peak },
  };
}

const mib = (bytes) => (bytes === null ? '-' : `${(bytes / MIB).toFixed(1)} MiB`);

export function formatUploads(result) {
  const { overLimit } = result;
  const statuses = Object.entries(result.statuses)
    .map(([status, count]) => `${count}x${status}`)
    .join(', ');
  const growth = (before, peak) => (before === null || peak === null ? '-' : mib(peak - before));
  return [
    `${UPLOADS_NAME}: ${result.uploads} sequential uploads of ${result.sizeBytes / MB} MB in ${result.seconds.toFixed(1)} s (${statuses}): ${result.mbPerSecond.toFixed(1)} MB/s`,
    `  server RSS: ${mib(result.rssBefore)} before, ${mib(result.rssPeak)} at peak (growth ${growth(result.rssBefore, result.rssPeak)})`,
    `  ${overLimit.sizeBytes / MIB} MiB chunked past a ${overLimit.limitBytes / MIB} MiB max_attachment_size: ${overLimit.status}; server RSS ${mib(overLimit.rssBefore)} before, ${mib(overLimit.rssPeak)} at peak (growth ${growth(overLimit.rssBefore, overLimit.rssPeak)})`,
  ].join('\n');
}
