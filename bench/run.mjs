#!/usr/bin/env node
/**
 * `npm run bench`: the reference server (SQLite, default logging) against a bare `node:http`
 * server returning the same body, at several connection counts. Scenarios: bench/scenarios.mjs.
 *
 * Options: --duration <s> (10)  --warmup <s> (3)  --connections 10,50  --only <text>  --json <file>
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { cleanup, cleanupOnExit } from './lib/children.mjs';
import { measure } from './lib/measure.mjs';
import { prepareScenario, seedContext } from './lib/prepare.mjs';
import { formatTable, formatTargets } from './lib/report.mjs';
import { startBaseline, startForgekit } from './lib/servers.mjs';
import { baselineBodyFrom, scenarios } from './scenarios.mjs';

const { values: options } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10,50' },
    only: { type: 'string' },
    json: { type: 'string' },
  },
});
const durationSeconds = Number(options.duration);
const warmupSeconds = Number(options.warmup);
const connectionCounts = options.connections.split(',').map(Number).sort((a, b) => a - b);

const progress = (message) => process.stderr.write(`${message}\n`);

async function main() {
  progress('starting the reference server (SQLite, log level info)...');
  const forgekit = await startForgekit();
  progress(`  ${forgekit.url}, log in ${forgekit.logFile}`);
  progress('seeding a group, a project and the list...');
  const ctx = await seedContext(forgekit.url, forgekit.rootToken);
  const prepared = [];
  for (const scenario of scenarios) prepared.push(await prepareScenario(scenario, ctx));

  const bodySource = prepared.find((entry) => entry.name === baselineBodyFrom);
  if (!bodySource || bodySource.skipped) throw new Error(`the baseline body comes from '${baselineBodyFrom}', which is ${bodySource ? `skipped: ${bodySource.skipped}` : 'not a scenario'}`);
  const bare = await startBaseline(bodySource.sampleBody);
  const bareName = `bare node:http (${Buffer.byteLength(bodySource.sampleBody)} B body)`;
  progress(`bare baseline at ${bare.url} with the body of ${baselineBodyFrom}`);

  const selected = prepared.filter((entry) => !options.only || entry.name.includes(options.only));
  const targets = [{ name: bareName, baseUrl: bare.url, request: { method: 'GET', path: '/' } }, ...selected.map((entry) => ({ name: entry.name, baseUrl: forgekit.url, request: entry }))];

  const rows = [];
  const bareRps = new Map();
  for (const target of targets) {
    if (target.request.skipped) {
      rows.push({ name: target.name, skipped: target.request.skipped });
      progress(`skipping ${target.name}: ${target.request.skipped}`);
      continue;
    }
    if (warmupSeconds > 0) {
      progress(`warming up ${target.name} (${warmupSeconds} s)...`);
      await measure(target.baseUrl, target.request, { connections: connectionCounts[0], durationSeconds: warmupSeconds });
    }
    for (const connections of connectionCounts) {
      progress(`measuring ${target.name} @${connections} connections (${durationSeconds} s)...`);
      const result = await measure(target.baseUrl, target.request, { connections, durationSeconds });
      if (target.baseUrl === bare.url) bareRps.set(connections, result.rps);
      const baseline = bareRps.get(connections);
      rows.push({ name: target.name, connections, result, targets: target.request.targets, ratio: baseline ? result.rps / baseline : null });
    }
  }

  console.log('');
  console.log(formatTable(rows));
  const targetLines = formatTargets(rows, connectionCounts[0]);
  if (targetLines) console.log(`\n${targetLines}`);
  if (options.json) {
    writeFileSync(options.json, `${JSON.stringify({ finishedAt: new Date().toISOString(), durationSeconds, warmupSeconds, rows }, null, 2)}\n`);
    progress(`results written to ${options.json}`);
  }
}

cleanupOnExit();
try {
  await main();
} catch (error) {
  console.error(error instanceof Error ? error.stack : error);
  process.exitCode = 1;
} finally {
  await cleanup();
}
