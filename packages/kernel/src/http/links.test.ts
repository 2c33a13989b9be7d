import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel } from '../kernel.js';
import { definePlugin } from '../plugin/define-plugin.js';
import { kernelServices } from '../plugin/kernel-services.js';
import { relinkWebUrl } from './context.js';
import { page } from './responses.js';
import { defineRoute } from './route.js';

/** Links without a configured external URL, and an app served under a base path, over a real socket. */
const linker = definePlugin({
  id: 'linker',
  compatibility: '*',
  register(ctx) {
    // Built once, outside any request, as services build web_url from the instance's URL.
    const milestoneUrl = `${ctx.resolve(kernelServices.instance).externalUrl}/groups/g/-/milestones/1`;
    ctx.routes(
      defineRoute({
        method: 'GET',
        path: '/milestone',
        auth: 'none',
        handler: (req) => ({ ...relinkWebUrl(req, { web_url: milestoneUrl }), elsewhere: req.relink('https://elsewhere.example/forge/x') }),
      }),
      defineRoute({
        method: 'GET',
        path: '/items',
        auth: 'none',
        paginated: true,
        handler: (req) => page([{ web_url: `${req.externalUrl}/items/1` }], 45),
      }),
      defineRoute({ method: 'GET', path: '/-/ping', raw: true, auth: 'none', handler: () => ({ pong: true }) }),
    );
  },
});

let dataDir: string;
let kernel: Kernel;
let server: Server;
let port: number;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'kernel-links-'));
  kernel = await createKernel({
    plugins: [linker],
    basePath: '/forge/',
    serverUrl: 'http://server.internal:8080/forge',
    config: { databaseUrl: ':memory:', dataDir, logLevel: 'silent' },
  });
  await kernel.start();
  server = createServer(kernel.nodeListener).listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server?.close();
  await kernel?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

/** GET over the socket with exactly these headers (fetch would not send a Host of our choosing). */
function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        const json = String(res.headers['content-type']).includes('json');
        resolve({ status: res.statusCode!, headers: res.headers, body: json && text ? JSON.parse(text) : text });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('links without a configured external URL', () => {
  it('use the scheme and host the client called, in Link headers and in bodies', async () => {
    const res = await get('/forge/api/v4/items?per_page=20', { Host: '127.0.0.1:9999' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ web_url: 'http://127.0.0.1:9999/forge/items/1' }]);
    expect(res.headers.link).toContain('<http://127.0.0.1:9999/forge/api/v4/items?page=2&per_page=20>; rel="next"');
  });

  it('are made for each host and query, though pages read again are sent kept headers', async () => {
    for (let round = 0; round < 2; round++) {
      const [one, two, smaller] = await Promise.all([
        get('/forge/api/v4/items?per_page=20', { Host: 'one.example' }),
        get('/forge/api/v4/items?per_page=20', { Host: 'two.example' }),
        get('/forge/api/v4/items?per_page=10', { Host: 'one.example' }),
      ]);
      expect(one.headers.link).toContain('<http://one.example/forge/api/v4/items?page=2&per_page=20>; rel="next"');
      expect(two.headers.link).toContain('<http://two.example/forge/api/v4/items?page=2&per_page=20>; rel="next"');
      expect(smaller.headers.link).toContain('<http://one.example/forge/api/v4/items?page=5&per_page=10>; rel="last"');
      expect(smaller.headers['x-total-pages']).toBe('5');
    }
  });

  it('ignore X-Forwarded-Proto and X-Forwarded-Host unless the proxy is trusted', async () => {
    const res = await get('/forge/api/v4/items', { Host: 'forge.lan', 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'evil.example' });
    expect(res.body).toEqual([{ web_url: 'http://forge.lan/forge/items/1' }]);
  });

  it("move links built from the instance's URL onto the request's, and leave other text alone", async () => {
    const res = await get('/forge/api/v4/milestone', { Host: '127.0.0.1:9999' });
    expect(res.body).toEqual({ web_url: 'http://127.0.0.1:9999/forge/groups/g/-/milestones/1', elsewhere: 'https://elsewhere.example/forge/x' });
  });

  it("fall back to the server's own URL when the Host header is not a host name", async () => {
    const res = await get('/forge/api/v4/items', { Host: 'bad host/<script>' });
    expect(res.body).toEqual([{ web_url: 'http://server.internal:8080/forge/items/1' }]);
  });
});

describe('a base path', () => {
  it('serves the API, raw routes and metrics under it, and nothing outside it', async () => {
    expect((await get('/forge/api/v4/items')).status).toBe(200);
    expect((await get('/forge/-/ping')).body).toEqual({ pong: true });
    expect((await get('/forge/-/metrics')).status).toBe(200);
    expect((await get('/api/v4/items')).status).toBe(404);
    expect((await get('/forge/api/v3/items')).status).toBe(410);
  });

  it('is part of every listed route path', () => {
    expect(kernel.routes.map((route) => route.path)).toEqual([
      '/forge/api/v4/milestone',
      '/forge/api/v4/items',
      '/forge/-/ping',
      '/forge/-/metrics',
      '/forge/api/v4/openapi.json',
    ]);
  });

  it('must be a path', async () => {
    await expect(createKernel({ plugins: [linker], basePath: 'forge', config: { databaseUrl: ':memory:', dataDir, logLevel: 'silent' } })).rejects.toThrow(
      "basePath 'forge' must look like '/forge'",
    );
  });
});
