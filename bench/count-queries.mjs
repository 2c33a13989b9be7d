#!/usr/bin/env node
/**
 * Diagnostic: how many SQL statements each GET scenario costs per request. Boots the
 * reference server in this process (SQLite, logging off), seeds like the bench, and
 * counts SQL statements over sequential requests with the tests' statement log (knex queries
 * and prepared reads, without the token's once-a-minute last-use stamp), once the scenario's
 * first requests have settled.
 *
 * Usage: node bench/count-queries.mjs [--requests 5] [--sql]
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { lastUseStamped } from '@forgekit/plugin-core/testing';
import { startServer } from '@forgekit/server';
import { recordStatements } from '@forgekit/testing';
import { freePort, runOwned, tempDir } from './lib/children.mjs';
import { prepareScenario, seedContext } from './lib/prepare.mjs';
import { scenarios } from './scenarios.mjs';

const { values: options } = parseArgs({ options: { requests: { type: 'string', default: '5' }, sql: { type: 'boolean', default: false } } });
const requests = Number(options.requests);

async function main() {
  const port = await freePort();
  const rootToken = `fkpat-bench-${randomBytes(12).toString('hex')}`;
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    FORGEKIT_DATA_DIR: tempDir('forgekit-queries-'),
    FORGEKIT_ROOT_TOKEN: rootToken,
    FORGEKIT_LOG_LEVEL: 'silent',
  };
  const server = await startServer({ config: { env } });
  try {
    const baseUrl = `http://127.0.0.1:${port}`;
    const ctx = await seedContext(baseUrl, rootToken);
    const log = recordStatements(server.kernel);
    for (const scenario of scenarios.filter((s) => s.method === 'GET')) {
      const prepared = await prepareScenario(scenario, ctx);
      if (prepared.skipped) {
        console.log(`${scenario.name}: skipped (${prepared.skipped})`);
        continue;
      }
      const send = async () => {
        const response = await fetch(`${baseUrl}${prepared.path}`, { headers: prepared.headers });
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`${prepared.path} answered ${response.status}`);
      };
      // A token's first request stamps its last use after answering, and the stamp moves the
      // change mark: measure once it has landed and a request has read afresh after it.
      await send();
      await lastUseStamped(server.kernel, prepared.headers['private-token']);
      await send();
      const statements = await log.during(async () => {
        for (let i = 0; i < requests; i++) await send();
      });
      const perRequest = statements.length / requests;
      console.log(`${scenario.name}: ${perRequest} SQL statements per request`);
      if (options.sql) for (const sql of statements) console.log(`  ${sql}`);
    }
  } finally {
    await server.close();
  }
}

await runOwned(main);
