#!/usr/bin/env node
/**
 * The one-core comparison: each server pinned to CPU 0, the load generator (wrk) pinned to
 * CPU 1, the same response bodies (captured from forgekit) served by a bare `node:http`
 * server and by a Prism mock of an OpenAPI document whose examples are those bodies.
 * Run after `npm run build`; needs Linux (`taskset`) and wrk (Debian: `apt-get install wrk`).
 * Prism (`@stoplight/prism-cli`) is installed on first use under node_modules/.cache.
 *
 * Options: --duration <s> (10)  --warmup <s> (3)  --connections <n> (10)  --json <file>
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, runOwned, spawnOwned, tempDir, waitUntilReady } from './lib/children.mjs';
import { prepareScenario, seedContext } from './lib/prepare.mjs';
import { repoRoot, startBaseline, startForgekit } from './lib/servers.mjs';
import { scenarios } from './scenarios.mjs';

const { values: options } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    json: { type: 'string' },
  },
});
const SERVER_CPU = '0';
const LOAD_CPU = '1';
const MEASURED = ['GET /projects/:id', 'GET /projects?per_page=20'];
const PRISM_VERSION = '5.14.2';
const progress = (message) => process.stderr.write(`${message}\n`);

/** Pins every thread of `pid` to one CPU; threads and processes it starts later inherit it. */
const pin = (pid) => execFileSync('taskset', ['-a', '-cp', SERVER_CPU, String(pid)], { stdio: 'ignore' });

function prismEntry() {
  const dir = join(repoRoot, 'node_modules/.cache/prism-cli');
  const entry = join(dir, 'node_modules/@stoplight/prism-cli/dist/index.js');
  if (!existsSync(entry)) {
    progress(`installing @stoplight/prism-cli@${PRISM_VERSION} under ${dir} (once)...`);
    mkdirSync(dir, { recursive: true });
    execFileSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--json=false', `@stoplight/prism-cli@${PRISM_VERSION}`], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  return entry;
}

/** A Prism mock answering each measured path with its captured body as the example. */
async function startPrism(prepared) {
  const paths = {};
  for (const scenario of prepared) {
    const [path, query] = scenario.path.split('?');
    const template = path.replace(/\/\d+(?=\/|$)/g, '/{id}');
    paths[template] = {
      get: {
        operationId: scenario.name,
        parameters: [
          ...(template.includes('{id}') ? [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] : []),
          ...(query ? [{ name: 'per_page', in: 'query', schema: { type: 'integer' } }] : []),
        ],
        responses: { 200: { description: 'OK', content: { 'application/json': { example: JSON.parse(scenario.sampleBody) } } } },
      },
    };
  }
  const dir = tempDir('forgekit-bench-prism-');
  const spec = join(dir, 'openapi.json');
  writeFileSync(spec, JSON.stringify({ openapi: '3.0.3', info: { title: 'captured', version: '1' }, paths }));
  const port = await freePort();
  const child = spawnOwned(process.execPath, [prismEntry(), 'mock', spec, '--host', '127.0.0.1', '--port', String(port), '--errors', 'false'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  pin(child.pid);
  const url = `http://127.0.0.1:${port}`;
  await waitUntilReady(`${url}${prepared[0].path}`, child, { timeoutMs: 60_000 });
  return { url, stop: () => child.kill('SIGTERM') };
}

/** One wrk run on the load CPU: req/s and latency percentiles in ms. */
function wrk(url, headers, seconds) {
  const args = ['-c', LOAD_CPU, 'wrk', '-t1', `-c${options.connections}`, `-d${seconds}s`, '--latency'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  const run = spawnSync('taskset', [...args, url], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`wrk failed (${run.error?.message ?? run.stderr}); install it (Debian: apt-get install wrk)`);
  const ms = (text) => {
    const [, value, unit] = text.match(/([\d.]+)(us|ms|s)/);
    return Number(value) * { us: 0.001, ms: 1, s: 1000 }[unit];
  };
  const percentile = (p) => ms(run.stdout.match(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm'))[1]);
  const non2xx = Number(run.stdout.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0);
  return { rps: Number(run.stdout.match(/Requests\/sec:\s+([\d.]+)/)[1]), p50: percentile(50), p99: percentile(99), non2xx };
}

function measure(target, scenario) {
  const url = `${target.url}${scenario.path}`;
  const headers = target.kind === 'forgekit' ? scenario.headers : {};
  if (Number(options.warmup) > 0) wrk(url, headers, options.warmup);
  return wrk(url, headers, options.duration);
}

async function main() {
  progress('starting the reference server (SQLite, log level info)...');
  const forgekit = await startForgekit();
  pin(forgekit.child.pid);
  const ctx = await seedContext(forgekit.url, forgekit.rootToken);
  const prepared = [];
  for (const name of MEASURED)
    prepared.push(
      await prepareScenario(
        scenarios.find((scenario) => scenario.name === name),
        ctx,
      ),
    );
  const prism = await startPrism(prepared);
  const rows = [];
  for (const scenario of prepared) {
    const bare = await startBaseline(scenario.sampleBody);
    pin(bare.child.pid);
    try {
      const row = { name: scenario.name, bytes: Buffer.byteLength(scenario.sampleBody) };
      for (const [kind, target] of [
        ['bare', bare],
        ['prism', prism],
        ['forgekit', forgekit],
      ]) {
        progress(`measuring ${kind}: ${scenario.name} @${options.connections} (${options.duration} s)...`);
        row[kind] = measure({ ...target, kind }, scenario);
      }
      rows.push(row);
    } finally {
      await bare.stop();
    }
  }
  prism.stop();

  const cell = (r) => `${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms${r.non2xx ? `, ${r.non2xx} non-2xx` : ''}`;
  console.log(`\none core each (servers on CPU ${SERVER_CPU}, wrk on CPU ${LOAD_CPU}), ${options.connections} connections, ${options.duration} s`);
  for (const row of rows) {
    console.log(`\n${row.name} (${row.bytes} B)`);
    console.log(`  bare node:http  ${cell(row.bare)}`);
    console.log(`  prism mock      ${cell(row.prism)}`);
    console.log(`  forgekit        ${cell(row.forgekit)}`);
    const ratio = row.forgekit.rps / row.prism.rps;
    const met = ratio >= 1.5 && row.forgekit.p99 < 25;
    console.log(
      `  forgekit/mock ${ratio.toFixed(2)}x, ${((row.forgekit.rps / row.bare.rps) * 100).toFixed(1)}% of bare: target (>= 1.5x the mock, p99 < 25 ms) ${met ? 'met' : 'MISSED'}`,
    );
  }
  if (options.json) writeFileSync(options.json, `${JSON.stringify({ finishedAt: new Date().toISOString(), options, rows }, null, 2)}\n`);
}

await runOwned(main);
