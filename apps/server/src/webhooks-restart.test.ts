import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@forgekit/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isJsonLine, SERVER_MAIN, startServerProcess, type ServerProcess } from './test-support/server-process.js';

interface Arrival {
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
  answered: boolean;
}

/**
 * A hook delivery survives `kill -9`: the server process (`node dist/main.js`, on one SQLite file,
 * or on a fresh PostgreSQL database with FORGEKIT_TEST_DATABASE_URL) is killed while the receiver
 * holds the delivery unanswered, the next process is killed while the delivery is queued and not
 * yet run, and the third sends it: the receiver answers it once, and the history records it once,
 * with the Idempotency-Key of the first attempt.
 */
describe('a hook delivery queued when the server is killed with SIGKILL', () => {
  const rootToken = 'fkpat-webhooks-restart-root-token';
  let dataDir: string;
  let database: TestDatabase;
  let env: Record<string, string>;
  let server: ServerProcess | undefined;
  let url: string;
  const arrivals: Arrival[] = [];
  const held: ServerResponse[] = [];
  let answering = false;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const arrival: Arrival = { path: req.url ?? '/', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), answered: false };
      arrivals.push(arrival);
      // Until told to answer, the receiver keeps each request open without a word.
      if (!answering) return void held.push(res);
      arrival.answered = true;
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('received');
    });
  });
  let receiverUrl: string;

  const start = async () => {
    server = startServerProcess(env);
    const line = await server.waitForLine((text) => isJsonLine(text) && 'url' in JSON.parse(text));
    if (!line) throw new Error(`the server did not start:\n${server.stdout.join('\n')}\n${server.stderr()}`);
    url = JSON.parse(line).url;
  };
  const kill = async () => {
    expect(await server!.stop('SIGKILL')).toBeNull();
    server = undefined;
  };
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': rootToken, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  /** Polls until `check` passes, for at most a minute (a delivery held by a dead process waits out its hold). */
  const until = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 60_000, interval: 50 });

  beforeAll(async () => {
    if (!existsSync(SERVER_MAIN)) throw new Error(`${SERVER_MAIN} is missing: run \`npm run build\` first`);
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    dataDir = await mkdtemp(join(tmpdir(), 'forgekit-hooks-restart-'));
    database = await createTestDatabase();
    env = { PORT: '0', HOST: '127.0.0.1', FORGEKIT_DATA_DIR: dataDir, FORGEKIT_ROOT_TOKEN: rootToken };
    if (database.url !== ':memory:') env.FORGEKIT_DATABASE_URL = database.url;
  }, 120_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    for (const res of held) res.destroy();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('is sent after the restart, answered once and recorded once', async () => {
    await start();
    expect((await api('PUT', '/application/settings', { allow_local_requests_from_web_hooks_and_services: true })).status).toBe(200);
    // An empty repository: the commit below is the only push.
    const project = await api('POST', '/projects', { name: 'Restarted' });
    expect(project.status).toBe(201);
    const hook = await api('POST', `/projects/${project.body.id}/hooks`, { url: `${receiverUrl}/restart`, push_events: true });
    expect(hook.status).toBe(201);

    const commit = await api('POST', `/projects/${project.body.id}/repository/commits`, {
      branch: 'main',
      commit_message: 'Delivered across a kill',
      actions: [{ action: 'create', file_path: 'killed.txt', content: 'x\n' }],
    });
    expect(commit.status).toBe(201);
    // The receiver holds the delivery: it is in flight when the process dies.
    const first = await until(() => {
      const found = arrivals.find((arrival) => arrival.body.after === commit.body.id);
      if (!found) throw new Error('not delivered yet');
      return found;
    });
    const key = first.headers['idempotency-key'];
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    await kill();

    // The next process queues it for when the dead one's hold ends, and dies before it runs.
    await start();
    await kill();
    expect(arrivals.filter((arrival) => arrival.headers['idempotency-key'] === key)).toHaveLength(1);

    answering = true;
    await start();
    const answered = await until(() => {
      const found = arrivals.filter((arrival) => arrival.headers['idempotency-key'] === key && arrival.answered);
      if (found.length === 0) throw new Error('not answered yet');
      return found;
    });
    expect(answered).toHaveLength(1);
    expect(answered[0]!.body).toMatchObject({ object_kind: 'push', after: commit.body.id });
    const events = () => api('GET', `/projects/${project.body.id}/hooks/${hook.body.id}/events`).then((res) => res.body as any[]);
    const recorded = await until(async () => {
      const found = (await events()).filter((event) => event.request_headers['Idempotency-Key'] === key);
      if (found.length === 0) throw new Error('not recorded yet');
      return found;
    });
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ response_status: '200', response_body: 'received', request_data: { after: commit.body.id } });

    // A later delivery goes through on its own; every delivery was answered once and recorded once.
    const later = await api('POST', `/projects/${project.body.id}/repository/commits`, {
      branch: 'main',
      commit_message: 'After the restart',
      actions: [{ action: 'create', file_path: 'later.txt', content: 'y\n' }],
    });
    expect(later.status).toBe(201);
    await until(async () => expect((await events()).map((event) => event.request_data.after)).toContain(later.body.id));
    expect(arrivals.filter((arrival) => arrival.headers['idempotency-key'] === key).map((arrival) => arrival.answered)).toEqual([false, true]);
    const keys = [...new Set(arrivals.map((arrival) => arrival.headers['idempotency-key']))].sort();
    const answeredWith = (each: unknown) => arrivals.filter((arrival) => arrival.headers['idempotency-key'] === each && arrival.answered);
    const history = await until(async () => {
      const found = await events();
      expect(found.map((event) => event.request_headers['Idempotency-Key']).sort()).toEqual(keys);
      return found;
    });
    for (const each of keys) expect(answeredWith(each)).toHaveLength(1);
    expect(history.every((event) => event.response_status === '200')).toBe(true);
  }, 180_000);
});
