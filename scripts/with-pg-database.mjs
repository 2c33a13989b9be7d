#!/usr/bin/env node
// Runs a command with FORGEKIT_TEST_DATABASE_URL pointing at a fresh PostgreSQL
// database, dropped afterwards. The server is FORGEKIT_TEST_PG_ADMIN_URL
// (default postgres://postgres@127.0.0.1:5432/postgres); it must be reachable.
import { spawn } from 'node:child_process';
import pg from 'pg';

// biome-ignore lint/suspicious/noUndeclaredEnvVars: read by this script, which turbo does not run
const adminUrl = process.env.FORGEKIT_TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: with-pg-database.mjs <command> [args...]');
  process.exit(2);
}

const name = `forgekit_ci_${Date.now().toString(36)}_${process.pid}`;
const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
try {
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
} catch (error) {
  console.error(`PostgreSQL is not reachable at ${adminUrl}: ${error.message}`);
  process.exit(1);
} finally {
  await admin.end().catch(() => undefined);
}

const url = new URL(adminUrl);
url.pathname = `/${name}`;
console.log(`PostgreSQL suite on database ${name}`);
const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, FORGEKIT_TEST_DATABASE_URL: url.toString() } });
const code = await new Promise((resolve) => child.on('close', (status) => resolve(status ?? 1)));

const cleanup = new pg.Client({ connectionString: adminUrl });
await cleanup.connect();
// With the migrated templates the test apps' databases were cloned from (see @forgekit/testing).
const { rows } = await cleanup.query(`SELECT datname FROM pg_database WHERE datname LIKE '${name}\\_tpl\\_%'`);
for (const { datname } of rows) await cleanup.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
await cleanup.end();
process.exit(code);
