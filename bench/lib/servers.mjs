/** The two servers under measurement, each in its own process so none shares autocannon's event loop. */
import { randomBytes } from 'node:crypto';
import { existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, spawnOwned, tempDir, waitUntilReady } from './children.mjs';

const benchDir = dirname(dirname(fileURLToPath(import.meta.url)));
export const repoRoot = dirname(benchDir);
const serverMainOf = (root) => join(root, 'apps/server/dist/main.js');

/** Environment the bench must not inherit: it would change the database or the log level. */
const SCRUBBED_ENV = [
  'FORGEKIT_DATABASE_URL',
  'FORGEKIT_CONFIG',
  'FORGEKIT_LOG_LEVEL',
  'FORGEKIT_EXTERNAL_URL',
  'FORGEKIT_DATA_DIR',
  'FORGEKIT_ROOT_TOKEN',
  'FORGEKIT_SQLITE_SYNCHRONOUS',
  'FORGEKIT_PRESENTED_CACHE_BYTES',
  'PORT',
  'HOST',
];

function tail(file, lines = 20) {
  if (!existsSync(file)) return '';
  return `\n--- last lines of ${file} ---\n${readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n')}`;
}

/**
 * The reference server as production runs it: `node apps/server/dist/main.js`, SQLite in a
 * fresh data dir (or the one given, to restart on the same data) unless `databaseUrl` names
 * a PostgreSQL database, `--workers` when `workers` is above 1, the default log level
 * (`info`, one line per request) written to a file. `root` is the checkout whose build runs
 * (another worktree's, to compare two builds).
 */
export async function startForgekit({
  root = repoRoot,
  dataDir = tempDir('forgekit-bench-'),
  rootToken = `fkpat-bench-${randomBytes(12).toString('hex')}`,
  databaseUrl,
  workers = 1,
} = {}) {
  const serverMain = serverMainOf(root);
  if (!existsSync(serverMain)) throw new Error(`${serverMain} is missing: run \`npm run build\` first`);
  const logFile = join(dataDir, 'server.log');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { ...process.env };
  for (const name of SCRUBBED_ENV) delete env[name];
  Object.assign(env, { PORT: String(port), HOST: '127.0.0.1', FORGEKIT_DATA_DIR: dataDir, FORGEKIT_ROOT_TOKEN: rootToken, FORGEKIT_EXTERNAL_URL: url });
  if (databaseUrl) env.FORGEKIT_DATABASE_URL = databaseUrl;
  const log = openSync(logFile, 'a');
  // Extra node flags for the server alone, e.g. `BENCH_SERVER_NODE_ARGS=--cpu-prof` to profile it under load.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const args = [...nodeArgs, serverMain, ...(workers > 1 ? ['--workers', String(workers)] : [])];
  const child = spawnOwned(process.execPath, args, { cwd: root, env, stdio: ['ignore', log, log] });
  // With workers, the primary answers nothing itself: wait for its line saying every worker serves.
  if (workers > 1) await waitForLogLine(logFile, child, (entry) => entry.msg === 'listening' && entry.workers === workers);
  await waitUntilReady(`${url}/-/readiness`, child, { describe: () => tail(logFile) });
  return { url, rootToken, dataDir, logFile, child, stop: () => stopChild(child) };
}

/** Polls the log file until a JSON line matches; fails early if `child` exits first. */
async function waitForLogLine(file, child, match, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited before it was ready${tail(file)}`);
    const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
    if (lines.some((line) => line.startsWith('{') && match(JSON.parse(line)))) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server was not ready after ${timeoutMs} ms${tail(file)}`);
}

/** SIGTERM, and the child's exit. */
function stopChild(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** A bare `node:http` server answering every request with `body`. */
export async function startBaseline(body) {
  const dir = tempDir('forgekit-bench-bare-');
  const bodyFile = join(dir, 'body.json');
  writeFileSync(bodyFile, body);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawnOwned(process.execPath, [join(benchDir, 'baseline-server.mjs'), String(port), bodyFile], { stdio: ['ignore', 'ignore', 'inherit'] });
  await waitUntilReady(url, child);
  return {
    url,
    child,
    stop: () => stopChild(child),
  };
}
