import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createKernel, createLogger, type Kernel } from '@forgekit/kernel';
import { corePlugin } from '@forgekit/plugin-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Access log lines, and requests whose bodies never arrive whole, over a real socket. */
describe('access log', () => {
  const lines: Record<string, unknown>[] = [];
  let kernel: Kernel;
  let server: Server;
  let dataDir: string;
  let port: number;
  const rootToken = 'fkpat-access-log-root-token';

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'forgekit-access-log-'));
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    kernel = await createKernel({
      plugins: [corePlugin],
      config: { dataDir, databaseUrl: ':memory:', maxBodySize: 64 * 1024, plugins: { core: { rootToken } } },
      logger: createLogger('info', sink),
    });
    await kernel.start();
    server = createServer(kernel.nodeListener).listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.close();
    await kernel.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Sends raw bytes; resolves with what came back once the server closes or `wait` ms pass. */
  function raw(bytes: string, options: { destroyAfter?: number } = {}): Promise<string> {
    return new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
      let received = '';
      socket.on('data', (data) => (received += String(data)));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(received));
      if (options.destroyAfter !== undefined) setTimeout(() => socket.destroy(), options.destroyAfter);
    });
  }

  const requestLine = async (path: string) => {
    for (let i = 0; i < 50; i++) {
      const found = lines.find((line) => line.msg === 'request' && line.path === path);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no access log line for ${path}`);
  };

  it('logs the user, the caller address, the route template and the bytes sent', async () => {
    lines.length = 0;
    const reply = await raw(`GET /api/v4/users/1 HTTP/1.1\r\nHost: x\r\nPRIVATE-TOKEN: ${rootToken}\r\nConnection: close\r\n\r\n`);
    const body = reply.slice(reply.indexOf('\r\n\r\n') + 4);
    const line = await requestLine('/api/v4/users/1');
    const root = (await kernel.fetch(new Request('http://localhost/api/v4/user', { headers: { 'PRIVATE-TOKEN': rootToken } })).then((res) => res.json())) as {
      id: number;
    };
    expect(line).toMatchObject({
      method: 'GET',
      route: '/api/v4/users/:id',
      status: 200,
      user_id: root.id,
      remote_ip: '127.0.0.1',
      response_bytes: Buffer.byteLength(body),
    });
    expect(Buffer.byteLength(body)).toBeGreaterThan(0);
  });

  it('logs a request no route matches, and an anonymous one, with a null user', async () => {
    lines.length = 0;
    await raw('GET /api/v4/nonexistent?x=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(await requestLine('/api/v4/nonexistent')).toMatchObject({
      route: '(unmatched)',
      status: 404,
      user_id: null,
      remote_ip: '127.0.0.1',
      response_bytes: Buffer.byteLength(JSON.stringify({ error: '404 Not Found' })),
    });
  });

  it('marks a request whose client went away mid-body as aborted, not as a 500', async () => {
    await raw(
      `POST /api/v4/projects?aborted=1 HTTP/1.1\r\nHost: x\r\nPRIVATE-TOKEN: ${rootToken}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":`,
      { destroyAfter: 100 },
    );
    const line = await requestLine('/api/v4/projects');
    expect(line).toMatchObject({ status: null, aborted: true });
  });

  it('marks a body the HTTP parser refused as aborted, not as a 500', async () => {
    lines.length = 0;
    const reply = await raw(
      `PUT /api/v4/application/settings HTTP/1.1\r\nHost: x\r\nPRIVATE-TOKEN: ${rootToken}\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nZZZ\r\nbad\r\n`,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
    expect(await requestLine('/api/v4/application/settings')).toMatchObject({ aborted: true, status: null });
    expect(lines.some((entry) => entry.status === 500)).toBe(false);
    // At most a warning, with no stack: the client's request was bad, not the server.
    expect(lines.filter((entry) => (entry.level as number) >= 50)).toEqual([]);
    expect(lines.some((entry) => 'err' in entry)).toBe(false);
  });

  it('answers an anonymous caller before its body and closes the connection instead of reading the rest', async () => {
    const reply = await raw(`POST /api/v4/projects HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 52428800\r\n\r\n{"name":"`);
    expect(reply).toMatch(/^HTTP\/1\.1 401/);
    expect(reply.toLowerCase()).toContain('connection: close');
  });

  it('keeps the connection of a request whose body was read whole', async () => {
    const reply = await raw(`GET /api/v4/version HTTP/1.1\r\nHost: x\r\nPRIVATE-TOKEN: ${rootToken}\r\n\r\n`, { destroyAfter: 300 });
    expect(reply).toMatch(/^HTTP\/1\.1 200/);
    expect(reply.toLowerCase()).not.toContain('connection: close');
  });

  it('logs the status it sent, and closes the connection after refusing an oversized body', async () => {
    lines.length = 0;
    const reply = await raw(
      `POST /api/v4/projects HTTP/1.1\r\nHost: x\r\nPRIVATE-TOKEN: ${rootToken}\r\nContent-Type: application/json\r\nContent-Length: 52428800\r\n\r\n{"name":"`,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 413/);
    expect(reply.toLowerCase()).toContain('connection: close');
    expect(await requestLine('/api/v4/projects')).toMatchObject({ status: 413 });
  });
});
