#!/usr/bin/env node
/**
 * `npm run bench`: the reference server (SQLite, default logging) against a bare `node:http`
 * server, at several connection counts. Each scenario is compared with a bare server that
 * returns that scenario's own response body, measured just before it in the same run.
 * Scenarios: bench/scenarios.mjs.
 *
 * Options: --duration <s> (5)  --warmup <s> (2)  --connections 10,50  --only <text>  --json <file>
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runOwned } from './lib/children.mjs';
import { connectionCountsFrom, measure } from './lib/measure.mjs';
import { prepareScenario, seedContext } from './lib/prepare.mjs';
import { formatMemory, formatTable, formatTargets } from './lib/report.mjs';
import { startBaseline, startForgekit } from './lib/servers.mjs';
import { formatUploads, measureUploads, rssBytes, UPLOADS_NAME } from './lib/uploads.mjs';
import { scenarios } from './scenarios.mjs';

const { values: options } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10,50' },
    only: { type: 'string' },
    json: { type: 'string' },
  },
});
const durationSeconds = Number(options.duration);
const warmupSeconds = Number(options.warmup);
const connectionCounts = connectionCountsFrom(options.connections);

const progress = (message) => process.stderr.write(`${message}\n`);

async function main() {
  progress('starting the reference server (SQLite, log level info)...');
  const forgekit = await startForgekit();
  progress(`  ${forgekit.url}, log in ${forgekit.logFile}`);
  const memory = { idle: rssBytes(forgekit.child.pid) };
  progress('seeding a group, a project and the list...');
  const ctx = await seedContext(forgekit.url, forgekit.rootToken);
  const prepared = [];
  for (const scenario of scenarios) prepared.push(await prepareScenario(scenario, ctx));

  const selected = prepared.filter((entry) => !options.only || entry.name.includes(options.only));
  const rows = [];
  for (const scenario of selected) {
    if (scenario.skipped) {
      rows.push({ name: scenario.name, skipped: scenario.skipped });
      progress(`skipping ${scenario.name}: ${scenario.skipped}`);
      continue;
    }
    const bare = await startBaseline(scenario.sampleBody);
    const bareName = `  bare node:http, same ${Buffer.byteLength(scenario.sampleBody)} B body`;
    try {
      const bareRps = new Map();
      for (const [name, baseUrl, request] of [
        [bareName, bare.url, { method: 'GET', path: '/' }],
        [scenario.name, forgekit.url, scenario],
      ]) {
        if (warmupSeconds > 0) {
          progress(`warming up ${name.trim()} (${warmupSeconds} s)...`);
          await measure(baseUrl, request, { connections: connectionCounts[0], durationSeconds: warmupSeconds });
        }
        for (const connections of connectionCounts) {
          progress(`measuring ${name.trim()} @${connections} connections (${durationSeconds} s)...`);
          const result = await measure(baseUrl, request, { connections, durationSeconds });
          if (baseUrl === bare.url) bareRps.set(connections, result.rps);
          const baseline = bareRps.get(connections);
          rows.push({
            name,
            method: baseUrl === bare.url ? 'bare' : request.method,
            connections,
            result,
            targets: request.targets,
            ratio: baseline ? result.rps / baseline : null,
          });
        }
      }
    } finally {
      await bare.stop();
    }
  }

  // After the table's load and before uploads, whose 10 MB bodies are measured on their own.
  memory.afterLoad = rssBytes(forgekit.child.pid);

  // Not a req/s scenario: uploads are measured in MB/s and server memory, after the table's scenarios.
  let uploads = null;
  if (!options.only || UPLOADS_NAME.includes(options.only)) {
    progress(`measuring ${UPLOADS_NAME} (${durationSeconds} s)...`);
    uploads = await measureUploads(forgekit, ctx, { durationSeconds });
  }

  console.log('');
  console.log(formatTable(rows));
  console.log(`\n${formatMemory(memory)}`);
  if (uploads) console.log(`\n${formatUploads(uploads)}`);
  const targetLines = formatTargets(rows, connectionCounts[0], connectionCounts.at(-1));
  if (targetLines) console.log(`\n${targetLines}`);
  if (options.json) {
    writeFileSync(
      options.json,
      `${JSON.stringify({ finishedAt: new Date().toISOString(), durationSeconds, warmupSeconds, rows, memory, uploads }, null, 2)}\n`,
    );
    progress(`results written to ${options.json}`);
  }
}

await runOwned(main);
