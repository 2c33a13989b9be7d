import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@forgekit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive, isJsonLine, SERVER_MAIN, startServerProcess, type ServerProcess } from './test-support/server-process.js';

/**
 * `node dist/main.js --workers 2`: two server processes on one port, on a fresh PostgreSQL
 * database with FORGEKIT_TEST_DATABASE_URL, otherwise on one SQLite file.
 */
describe('the server with --workers 2', () => {
  const rootToken = 'fkpat-cluster-root-token';
  const REQUESTS = 12;
  let dataDir: string;
  let database: TestDatabase;
  let server: ServerProcess;
  let url: string;
  const entries = () => server.stdout.filter(isJsonLine).map((line) => JSON.parse(line) as Record<string, any>);
  const versionRequests = () => entries().filter((entry) => entry.msg === 'request' && entry.path === '/api/v4/version');

  /** A GET on a connection of its own, so the cluster hands each to the next worker. */
  const get = (path: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${url}${path}`, { agent: false, headers: { 'PRIVATE-TOKEN': rootToken } }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      });
      req.on('error', reject).end();
    });

  beforeAll(async () => {
    if (!existsSync(SERVER_MAIN)) throw new Error(`${SERVER_MAIN} is missing: run \`npm run build\` first`);
    dataDir = await mkdtemp(join(tmpdir(), 'forgekit-cluster-'));
    database = await createTestDatabase();
    const env: Record<string, string> = { PORT: '0', HOST: '127.0.0.1', FORGEKIT_DATA_DIR: dataDir, FORGEKIT_ROOT_TOKEN: rootToken };
    if (database.url !== ':memory:') env.FORGEKIT_DATABASE_URL = database.url;
    server = startServerProcess(env, { args: [SERVER_MAIN, '--workers', '2'] });
    const line = await server.waitForLine((text) => isJsonLine(text) && JSON.parse(text).msg === 'listening');
    if (!line) throw new Error(`the cluster did not start:\n${server.stdout.join('\n')}\n${server.stderr()}`);
    url = JSON.parse(line).url;
  }, 120_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('announces one URL for its workers, each of which migrated nothing', () => {
    const listening = entries().find((entry) => entry.msg === 'listening')!;
    expect(listening).toMatchObject({ workers: 2, url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
    expect(entries().filter((entry) => entry.msg === 'worker ready')).toHaveLength(2);
    // Migrations ran once, in the primary, before the workers started.
    expect(entries().filter((entry) => entry.msg === 'migrations applied')).toHaveLength(1);
  });

  it('serves from both worker processes on the one port', async () => {
    for (let i = 0; i < REQUESTS; i++) expect((await get('/api/v4/version')).status).toBe(200);
    expect(await server.waitUntil(() => versionRequests().length === REQUESTS)).toBe(true);
    expect(new Set(versionRequests().map((entry) => entry.worker))).toEqual(new Set([0, 1]));
  });

  it('answers /-/metrics for all its workers together', async () => {
    const { status, text } = await get('/-/metrics');
    expect(status).toBe(200);
    const line = text.split('\n').find((entry) => entry.startsWith('forgekit_http_requests_total{method="GET",route="/api/v4/version",status="200"} '));
    expect(line?.split(' ').at(-1)).toBe(String(REQUESTS));
  });

  it('stops every worker on SIGTERM and exits 0, leaving no process', async () => {
    const pids = [
      server.pid,
      ...entries()
        .filter((entry) => entry.msg === 'worker ready')
        .map((entry) => entry.pid as number),
    ];
    expect(pids).toHaveLength(3);
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(pids.filter(isAlive)).toEqual([]);
    for (const line of server.stdout) expect(isJsonLine(line), `stdout line: ${line}`).toBe(true);
  });
});
