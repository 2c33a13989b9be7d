#!/usr/bin/env node
/**
 * `node bench/workers.mjs` (after `npm run build`): the reference server on PostgreSQL as one
 * process, then as `--workers N` on the same seeded database, over the GET scenarios of
 * bench/scenarios.mjs. Prints req/s and latency of each and the ratio N processes / one
 * (target: at least 1.7 with two workers).
 *
 * The database is created on FORGEKIT_TEST_PG_ADMIN_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres) and dropped at the end. autocannon runs on the
 * same machine, so its own CPU counts against the servers': a figure from a machine with
 * fewer cores than processes says more about the machine than about the server.
 *
 * Options: --workers <n> (2)  --duration <s> (5)  --warmup <s> (2)  --connections <n> (50)  --only <text>  --json <file>
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { runOwned, tempDir } from './lib/children.mjs';
import { measure } from './lib/measure.mjs';
import { prepareScenario, seedContext } from './lib/prepare.mjs';
import { startForgekit } from './lib/servers.mjs';
import { scenarios } from './scenarios.mjs';

const { values: options } = parseArgs({
  options: {
    workers: { type: 'string', default: '2' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    only: { type: 'string' },
    json: { type: 'string' },
  },
});
const workers = Number(options.workers);
const connections = Number(options.connections);
const durationSeconds = Number(options.duration);
const warmupSeconds = Number(options.warmup);
const TARGET = 1.7;

const progress = (message) => process.stderr.write(`${message}\n`);
// biome-ignore lint/suspicious/noUndeclaredEnvVars: read by this script, which turbo does not run
const adminUrl = process.env.FORGEKIT_TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function adminQuery(sql) {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Measures every prepared GET scenario against `url`: warm-up, then one run at `connections`. */
async function measureAll(url, prepared) {
  const results = new Map();
  for (const scenario of prepared) {
    if (warmupSeconds > 0) await measure(url, scenario, { connections, durationSeconds: warmupSeconds });
    progress(`  measuring ${scenario.name} @${connections} connections (${durationSeconds} s)...`);
    results.set(scenario.name, await measure(url, scenario, { connections, durationSeconds }));
  }
  return results;
}

const fixed = (value, digits) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

async function main() {
  const name = `forgekit_bench_${Date.now().toString(36)}_${process.pid}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  try {
    const dataDir = tempDir('forgekit-bench-workers-');
    progress(`database ${name}; ${availableParallelism()} cores on this machine`);
    progress('starting one server process (PostgreSQL, log level info)...');
    let server = await startForgekit({ dataDir, databaseUrl });
    const { rootToken } = server;
    progress('seeding...');
    const ctx = await seedContext(server.url, rootToken);
    const prepared = [];
    for (const scenario of scenarios.filter((entry) => entry.method === 'GET' && (!options.only || entry.name.includes(options.only)))) {
      const ready = await prepareScenario(scenario, ctx);
      if (ready.skipped) progress(`skipping ${ready.name}: ${ready.skipped}`);
      else prepared.push(ready);
    }
    const single = await measureAll(server.url, prepared);
    await server.stop();

    progress(`starting ${workers} worker processes on the same database...`);
    server = await startForgekit({ dataDir, databaseUrl, rootToken, workers });
    // The seeded ids are the same: the scenarios' requests work against the new processes as they are.
    const several = await measureAll(server.url, prepared);
    await server.stop();

    const rows = prepared.map((scenario) => {
      const one = single.get(scenario.name);
      const many = several.get(scenario.name);
      return { name: scenario.name, one, many, ratio: many.rps / one.rps };
    });
    const width = Math.max(8, ...rows.map((row) => row.name.length));
    console.log('');
    console.log(`${'endpoint'.padEnd(width)}  conns  1 proc req/s  p99 ms  ${workers} procs req/s  p99 ms  ratio  errors/non-2xx`);
    for (const { name: endpoint, one, many, ratio } of rows) {
      const errors = `${one.errors + many.errors}/${one.non2xx + many.non2xx}`;
      console.log(
        `${endpoint.padEnd(width)}  ${String(connections).padStart(5)}  ${fixed(one.rps, 0).padStart(12)}  ${fixed(one.p99, 2).padStart(6)}  ${fixed(many.rps, 0).padStart(12)}  ${fixed(many.p99, 2).padStart(6)}  ${fixed(ratio, 2).padStart(5)}  ${errors}`,
      );
    }
    console.log('');
    for (const { name: endpoint, ratio } of rows) {
      console.log(`${ratio >= TARGET ? 'met   ' : 'MISSED'}  ${endpoint}: ${fixed(ratio, 2)}x with ${workers} processes (target >= ${TARGET}x)`);
    }
    if (options.json) {
      writeFileSync(options.json, `${JSON.stringify({ finishedAt: new Date().toISOString(), workers, connections, durationSeconds, rows }, null, 2)}\n`);
    }
  } finally {
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

await runOwned(main);
