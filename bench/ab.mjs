#!/usr/bin/env node
/**
 * Two builds of the reference server side by side (`node bench/ab.mjs --before <checkout>`):
 * both seeded alike, then every scenario measured on one and the other in alternating rounds
 * (before, after, after, before, ...), so that a machine whose speed drifts during the run
 * slows both sides alike. Prints the median req/s, p50 and p99 of each side, after/before,
 * and the server CPU time per request (utime + stime from /proc, Linux), which load from
 * other processes moves less than req/s. The other checkout must be built (`npm run build`).
 *
 * Options: --before <dir> (required)  --after <dir> (this checkout)  --rounds <n> (4)
 *   --duration <s> (2)  --warmup <s> (2)  --connections 10,50  --only <text>  --json <file>
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runOwned } from './lib/children.mjs';
import { connectionCountsFrom, measure } from './lib/measure.mjs';
import { prepareScenario, seedContext } from './lib/prepare.mjs';
import { repoRoot, startForgekit } from './lib/servers.mjs';
import { scenarios } from './scenarios.mjs';

const { values: options } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string', default: repoRoot },
    rounds: { type: 'string', default: '4' },
    duration: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10,50' },
    only: { type: 'string' },
    json: { type: 'string' },
  },
});
if (!options.before) throw new Error('--before <checkout> is required: the built checkout to compare with');
const rounds = Number(options.rounds);
const durationSeconds = Number(options.duration);
const warmupSeconds = Number(options.warmup);
const connectionCounts = connectionCountsFrom(options.connections);
const progress = (message) => process.stderr.write(`${message}\n`);

const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
/** The process's user + system CPU time so far, in microseconds. */
function cpuMicros(pid) {
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / ticksPerSecond;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function startSide(label, root) {
  progress(`starting ${label} (${root})...`);
  const server = await startForgekit({ root });
  const ctx = await seedContext(server.url, server.rootToken);
  const prepared = new Map();
  for (const scenario of scenarios) {
    if (options.only && !scenario.name.includes(options.only)) continue;
    prepared.set(scenario.name, await prepareScenario(scenario, ctx));
  }
  return { label, server, prepared };
}

/** Waits until the server has used under 2% of a core for a second: seeding's background work is done. */
async function settled(server) {
  for (let tries = 0; tries < 60; tries++) {
    const start = cpuMicros(server.child.pid);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if (cpuMicros(server.child.pid) - start < 20_000) return;
  }
  progress(`${server.url} still busy after a minute; measuring anyway`);
}

async function measureOnce(side, request, connections) {
  const pid = side.server.child.pid;
  const cpuBefore = cpuMicros(pid);
  const result = await measure(side.server.url, request, { connections, durationSeconds });
  const cpu = cpuMicros(pid) - cpuBefore;
  return {
    rps: result.rps,
    p50: result.p50,
    p99: result.p99,
    cpuPerRequest: result.total ? cpu / result.total : NaN,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function main() {
  const before = await startSide('before', resolve(options.before));
  const after = await startSide('after', resolve(options.after));
  progress('waiting for both servers to settle...');
  await Promise.all([settled(before.server), settled(after.server)]);
  const rows = [];
  for (const [name, afterRequest] of after.prepared) {
    const beforeRequest = before.prepared.get(name);
    if (afterRequest.skipped || !beforeRequest || beforeRequest.skipped) {
      progress(`skipping ${name}: ${afterRequest.skipped ?? beforeRequest?.skipped ?? 'not in both'}`);
      continue;
    }
    const sides = [
      [before, beforeRequest],
      [after, afterRequest],
    ];
    if (warmupSeconds > 0) {
      progress(`warming up ${name} (${warmupSeconds} s each)...`);
      for (const [side, request] of sides) await measure(side.server.url, request, { connections: connectionCounts[0], durationSeconds: warmupSeconds });
    }
    for (const connections of connectionCounts) {
      const runs = { before: [], after: [] };
      for (let round = 0; round < rounds; round++) {
        progress(`${name} @${connections}: round ${round + 1} of ${rounds}`);
        for (const [side, request] of round % 2 ? [...sides].reverse() : sides) runs[side.label].push(await measureOnce(side, request, connections));
      }
      rows.push({ name, connections, before: runs.before, after: runs.after });
    }
  }
  await Promise.all([before.server.stop(), after.server.stop()]);

  const fixed = (value, digits) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
  const side = (runs) =>
    `${fixed(median(runs.map((r) => r.rps)), 0)} (${fixed(median(runs.map((r) => r.p50)), 2)}, ${fixed(median(runs.map((r) => r.p99)), 2)})`;
  console.log(`\n${rounds} alternating rounds of ${durationSeconds} s; medians. req/s (p50 ms, p99 ms); CPU µs per request of the server.\n`);
  console.log('| scenario | conns | before | after | req/s after/before | CPU µs/req before → after | CPU after/before | non-2xx |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    const rps = median(row.after.map((r) => r.rps)) / median(row.before.map((r) => r.rps));
    const cpuBefore = median(row.before.map((r) => r.cpuPerRequest));
    const cpuAfter = median(row.after.map((r) => r.cpuPerRequest));
    const failures = [...row.before, ...row.after].reduce((sum, r) => sum + r.non2xx + r.errors, 0);
    console.log(
      `| \`${row.name}\` | ${row.connections} | ${side(row.before)} | ${side(row.after)} | ${fixed(rps, 2)} | ${fixed(cpuBefore, 0)} → ${fixed(cpuAfter, 0)} | ${fixed(cpuAfter / cpuBefore, 2)} | ${failures} |`,
    );
  }
  if (options.json) writeFileSync(options.json, `${JSON.stringify({ finishedAt: new Date().toISOString(), rounds, durationSeconds, rows }, null, 2)}\n`);
}

await runOwned(main);
