import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corePlugin } from '@forgekit/plugin-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type StartedServer } from './server.js';
import { isJsonLine, SERVER_MAIN, startServerProcess, type ServerProcess } from './test-support/server-process.js';

const HOST = '127.0.0.1';
const dirs: string[] = [];
const dataDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'forgekit-server-'));
  dirs.push(dir);
  return dir;
};
let blocker: Server;
let takenPort: number;

beforeAll(async () => {
  blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, HOST, resolve));
  takenPort = (blocker.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => blocker.close(resolve));
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('startServer', () => {
  it('rejects with an error naming the host and port when the port is taken, serves nowhere else and writes nothing', async () => {
    const dir = await dataDir();
    const env = { PORT: String(takenPort), HOST, FORGEKIT_DATA_DIR: dir, FORGEKIT_LOG_LEVEL: 'silent' };
    let started: StartedServer | undefined;
    let failure: unknown;
    try {
      started = await startServer({ plugins: [corePlugin], config: { env } });
    } catch (error) {
      failure = error;
    } finally {
      await started?.close();
    }
    expect(started?.url).toBeUndefined();
    expect(String(failure)).toContain(`${HOST}:${takenPort}`);
    expect(String(failure)).toContain('already in use');
    // No migration ran and no secrets key was generated: the port is bound before the data dir is touched.
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('startServer under an oversized body', () => {
  it('keeps serving after refusing a chunked body past the limit while the client still sends it', async () => {
    const token = 'fkpat-oversized-body-root-token';
    const env = {
      PORT: '0',
      HOST,
      FORGEKIT_DATA_DIR: await dataDir(),
      FORGEKIT_LOG_LEVEL: 'silent',
      FORGEKIT_ROOT_TOKEN: token,
      FORGEKIT_MAX_BODY_SIZE: '65536',
    };
    const server = await startServer({ plugins: [corePlugin], config: { env } });
    try {
      const status = await new Promise<string>((resolve) => {
        const req = request(
          `${server.url}/api/v4/projects`,
          { method: 'POST', headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' } },
          (res) => {
            res.resume();
            resolve(String(res.statusCode));
          },
        );
        req.on('error', () => resolve('closed'));
        const chunk = Buffer.alloc(16 * 1024, 0x61);
        let left = 64;
        const pump = () => {
          while (left-- > 0) if (!req.write(chunk)) return req.once('drain', pump);
          req.end();
        };
        req.write('{"name":"');
        pump();
      });
      expect(['413', 'closed']).toContain(status);
      expect((await fetch(`${server.url}/-/readiness`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('the server process (node dist/main.js)', () => {
  const running: ServerProcess[] = [];
  const start = (env: Record<string, string>) => {
    const server = startServerProcess(env);
    running.push(server);
    return server;
  };
  const servingLine = (line: string) => !isJsonLine(line) || 'url' in JSON.parse(line);
  const expectOnlyJson = (server: ServerProcess) => {
    for (const line of server.stdout) expect(isJsonLine(line), `stdout line: ${line}`).toBe(true);
  };

  beforeAll(() => {
    if (!existsSync(SERVER_MAIN)) throw new Error(`${SERVER_MAIN} is missing: run \`npm run build\` first`);
  });
  afterEach(async () => {
    for (const server of running.splice(0)) await server.stop('SIGKILL');
  });

  it('writes only JSON lines on stdout, its URL among them, from start to a graceful SIGTERM', async () => {
    const server = start({ PORT: '0', HOST, FORGEKIT_DATA_DIR: await dataDir() });
    const line = await server.waitForLine(servingLine);
    expect(line, server.stderr()).not.toBeNull();
    expect(isJsonLine(line!), `stdout line: ${line}`).toBe(true);
    const { url, level } = JSON.parse(line!);
    expect(level).toBe(30);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${url}/api/v4/version`)).status).toBe(401);
    expect(await server.stop('SIGTERM')).toBe(0);
    expectOnlyJson(server);
    const messages = server.stdout.map((entry) => JSON.parse(entry).msg);
    expect(messages).toContain('shutting down');
  });

  it('exits non-zero with an error naming the host and port when the port is taken, serving nowhere else and writing nothing', async () => {
    const dir = await dataDir();
    const server = start({ PORT: String(takenPort), HOST, FORGEKIT_DATA_DIR: dir });
    expect(await server.waitForLine(servingLine)).toBeNull();
    expect(await server.exited).not.toBe(0);
    expect(server.stderr()).toContain(`${HOST}:${takenPort}`);
    expect(server.stderr()).toContain('already in use');
    expectOnlyJson(server);
    expect(await readdir(dir)).toEqual([]);
  });

  it('idles with the young generation it started with, and lets it grow under load', async () => {
    const server = start({ PORT: '0', HOST, FORGEKIT_DATA_DIR: await dataDir() });
    const line = await server.waitForLine(servingLine);
    expect(line, server.stderr()).not.toBeNull();
    const { url } = JSON.parse(line!);
    const newSpaceBytes = async () => {
      const text = await (await fetch(`${url}/-/metrics`)).text();
      return Number(/^nodejs_heap_space_size_total_bytes\{space="new"\} (\d+)/m.exec(text)?.[1]);
    };
    const initial = 4 * 1024 * 1024;
    // Booting alone would grow it to V8's maximum (two 16 MB semi-spaces).
    expect(await newSpaceBytes()).toBeLessThanOrEqual(initial);
    // Responses that are alive at once survive scavenges: the young generation grows again.
    let size = 0;
    for (let round = 1; round <= 400 && size <= initial; round++) {
      await Promise.all(Array.from({ length: 20 }, () => fetch(`${url}/-/metrics`).then((response) => response.text())));
      if (round % 10 === 0) size = await newSpaceBytes();
    }
    expect(size).toBeGreaterThan(initial);
  });

  it('gives a URL clients can use in its listening line when it listens on every interface', async () => {
    const server = start({ PORT: '0', HOST: '0.0.0.0', FORGEKIT_DATA_DIR: await dataDir() });
    const line = await server.waitForLine(servingLine);
    expect(line, server.stderr()).not.toBeNull();
    const { url, host, port } = JSON.parse(line!);
    expect(host).toBe('0.0.0.0');
    expect(url).toBe(`http://localhost:${port}`);
    expect((await fetch(`${url}/-/liveness`)).status).toBe(200);
  });
});
