import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { IdentityProvider, Principal } from './auth/identity.js';
import { forbidden, notFound } from './http/errors.js';
import * as f from './http/fields.js';
import { params } from './http/params.js';
import { page } from './http/responses.js';
import { defineRoute } from './http/route.js';
import { kernelMigrations } from './db/kernel-migrations.js';
import { createKernel, type Kernel } from './kernel.js';
import { BootError } from './plugin/boot-order.js';
import { kernelServices } from './plugin/kernel-services.js';
import { definePlugin } from './plugin/define-plugin.js';
import { createServiceRef } from './plugin/service-ref.js';
import { internalsOf } from './db/internals.js';
import { InternalIdEntity } from './db/internal-ids.js';
import { schemaDrift } from './db/schema-drift.js';

const alice: Principal = { id: 1, username: 'alice', name: 'Alice', isAdmin: false, external: false, state: 'active' };

const tokenScopes: Record<string, string[]> = { 'alice-token': ['api'], 'alice-runner-token': ['create_runner'] };

const identity: IdentityProvider = {
  findCredential: async (secret) => {
    const scopes = tokenScopes[secret];
    return scopes ? { tokenId: 1, principal: alice, scopes, revoked: false, expiresAt: null } : null;
  },
  findUser: async () => null,
  denialReason: () => null,
};

const demo = definePlugin({
  id: 'demo',
  compatibility: '*',
  provides: [kernelServices.identity],
  migrations: [
    {
      name: '202601010000-notes',
      async up(knex) {
        await knex.schema.createTable('notes', (table) => {
          table.increments('id');
          table.string('name').notNullable();
        });
      },
    },
  ],
  register(ctx) {
    ctx.resolve(kernelServices.uploads).limitFileSize(async () => uploadLimit);
    const db = internalsOf(ctx.resolve(kernelServices.database)).knex;
    ctx.provide(kernelServices.identity, identity);
    ctx.routes(
      defineRoute({
        method: 'PUT',
        path: '/guarded/:id',
        auth: 'none',
        before: (req) => {
          if (req.params.id !== '1') throw notFound('Guarded');
          return { found: req.params.id };
        },
        input: params({ name: f.string() }),
        handler: (_req, input, resource) => ({ ...resource, name: input.name }),
      }),
      defineRoute({
        method: 'POST',
        path: '/formatted',
        auth: 'none',
        paramErrors: 'message',
        input: params({ name: f.string() }),
        handler: (_req, input) => input,
      }),
      defineRoute({
        method: 'POST',
        path: '/notes',
        auth: 'none',
        input: params({ name: f.string() }),
        handler: async (_req, input) => {
          const [id] = await db('notes').insert({ name: input.name });
          return { id, name: input.name };
        },
      }),
      defineRoute({
        method: 'GET',
        path: '/notes',
        auth: 'none',
        paginated: true,
        input: params({ sort: f.optional(f.values(['asc', 'desc']), 'asc') }),
        handler: async (req, input) => {
          const rows = await db('notes')
            .orderBy('id', input.sort ?? 'asc')
            .limit(req.page.perPage)
            .offset(req.page.offset);
          const [{ count }] = await db('notes').count({ count: '*' });
          return page(rows, Number(count));
        },
      }),
      defineRoute({ method: 'GET', path: '/things/:id', auth: 'none', handler: (req) => ({ id: req.params.id, requestId: req.requestId }) }),
      defineRoute({
        method: 'GET',
        path: '/missing',
        auth: 'none',
        handler: () => {
          throw notFound('Project');
        },
      }),
      defineRoute({
        method: 'GET',
        path: '/boom',
        auth: 'none',
        handler: () => {
          throw new Error('boom');
        },
      }),
      defineRoute({ method: 'GET', path: '/user', handler: (req) => ({ username: req.user?.username }) }),
      defineRoute({
        method: 'POST',
        path: '/own-scopes',
        scopes: 'handler',
        handler: (req) => ({ username: req.user?.username, scopes: req.credential?.scopes }),
      }),
      defineRoute({
        method: 'GET',
        path: '/search',
        auth: 'none',
        input: params({ a: f.array(f.string()), filter: f.hash({ environment_scope: f.string() }) }),
        handler: (_req, input) => input,
      }),
      defineRoute({
        method: 'POST',
        path: '/uploads',
        auth: 'none',
        uploads: true,
        input: params({ title: f.string(), labels: f.optional(f.array(f.string())), file: f.file() }),
        handler: async (_req, input) => ({
          title: input.title,
          labels: input.labels,
          filename: input.file.filename,
          type: input.file.type,
          size: input.file.size,
          text: await readFile(input.file.path, 'utf8'),
        }),
      }),
    );
  },
});

let dataDir: string;
let kernel: Kernel;
let uploadLimit = 1024;

const call = (path: string, init?: RequestInit) => kernel.fetch(new Request(`http://localhost${path}`, init));
const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'kernel-test-'));
  kernel = await createKernel({ plugins: [demo], config: { databaseUrl: ':memory:', dataDir, logLevel: 'silent', externalUrl: 'https://forge.test/' } });
  await kernel.start();
});

afterAll(async () => {
  await kernel?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('migrations', () => {
  it('records kernel and plugin migrations by owner', async () => {
    const names = await internalsOf(kernel.database).knex('forgekit_migrations').pluck('name');
    expect(names).toEqual([
      'kernel:202611220500-rate-limits',
      'kernel:202611241000-secrets-key-check',
      'kernel:202611271500-internal-ids',
      'demo:202601010000-notes',
    ]);
  });

  it("describes the kernel's internal_ids table exactly as its migration creates it", async () => {
    expect(await schemaDrift(kernel.database, [InternalIdEntity])).toEqual([]);
  });
});

describe('routing', () => {
  it('lists its routes with full paths, auth modes and declared params', () => {
    expect(kernel.routes.find((route) => route.method === 'PUT' && route.path === '/api/v4/guarded/:id')).toEqual({
      pluginId: 'demo',
      method: 'PUT',
      path: '/api/v4/guarded/:id',
      auth: 'none',
      inputs: ['name'],
      fields: { name: { type: 'string', required: true } },
      rules: [],
      scopes: [],
      streamBody: false,
      paginated: false,
      uploads: false,
      basicAuth: false,
      response: undefined,
      exemptFrom: [],
    });
    expect(kernel.routes.find((route) => route.path === '/api/v4/uploads')?.inputs).toEqual(['title', 'labels', 'file']);
    expect(kernel.routes.find((route) => route.path === '/api/v4/user')).toMatchObject({ auth: 'required', inputs: [] });
    expect(kernel.routes.find((route) => route.path === '/-/metrics')).toMatchObject({ pluginId: 'kernel', auth: 'none' });
    expect(kernel.routes.find((route) => route.path === '/api/v4/openapi.json')).toMatchObject({ pluginId: 'kernel', auth: 'none' });
    expect(kernel.routes).toHaveLength(13);
    expect(Object.isFrozen(kernel.routes)).toBe(true);
  });

  it('answers an unknown route with the framework 404', async () => {
    const response = await call('/api/v4/nowhere');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: '404 Not Found' });
  });

  it('answers the root, a wrong method and a path of control characters with the same 404, quietly', async () => {
    const warn = vi.spyOn(console, 'warn');
    try {
      for (const [path, method] of [
        ['/', 'GET'],
        ['/api/v4/user', 'DELETE'],
        ['/api/v4/issues/%F4%8F%BF%BD%13%F2%80%A4%90/notes', 'GET'],
      ] as const) {
        const response = await call(path, { method });
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(await response.json()).toEqual({ error: '404 Not Found' });
      }
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it('answers the v3 API with 410', async () => {
    const response = await call('/api/v3/projects');
    expect(response.status).toBe(410);
    expect(await response.json()).toEqual({ error: 'API V3 is no longer supported. Use API V4 instead.' });
  });

  it('answers OPTIONS with 204', async () => {
    const response = await call('/api/v4/notes', { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('decodes path params', async () => {
    const response = await call('/api/v4/things/group%2Fproject');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 'group/project' });
  });

  it('decodes path params once', async () => {
    const response = await call('/api/v4/things/a%2525b');
    expect(await response.json()).toMatchObject({ id: 'a%25b' });
  });

  it('serves HEAD on GET routes without a body', async () => {
    const response = await call('/api/v4/things/1', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('sends standard headers and a request id', async () => {
    const response = await call('/api/v4/things/1');
    const id = response.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(((await response.json()) as { requestId: string }).requestId).toBe(id);
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-type')).toContain('application/json');
  });

  it('keeps a request id the client sent', async () => {
    const response = await call('/api/v4/things/1', { headers: { 'X-Request-Id': 'abc-123' } });
    expect(response.headers.get('x-request-id')).toBe('abc-123');
  });
});

describe('handlers and errors', () => {
  it('answers a POST with 201', async () => {
    const response = await call('/api/v4/notes', json({ name: 'first' }));
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ id: expect.any(Number), name: 'first' });
  });

  it('answers a validation failure with 400', async () => {
    const response = await call('/api/v4/notes', json({ title: 'x' }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'name is missing' });
  });

  it('answers a JSON parse error with 400', async () => {
    const response = await call('/api/v4/notes', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"name":' });
    expect(response.status).toBe(400);
    expect(Object.keys((await response.json()) as object)).toEqual(['error']);
  });

  it('answers an unsupported content type with 415', async () => {
    const response = await call('/api/v4/notes', { method: 'POST', headers: { 'Content-Type': 'image/png' }, body: 'png' });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ error: "The provided content-type 'image/png' is not supported." });
  });

  it('reads a form body, with the query underneath', async () => {
    const response = await call('/api/v4/notes?name=query', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'name=form',
    });
    expect(await response.json()).toMatchObject({ name: 'form' });
  });

  it('renders a thrown API error', async () => {
    const response = await call('/api/v4/missing');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: '404 Project Not Found' });
  });

  it('hides an unexpected error behind a 500', async () => {
    const response = await call('/api/v4/boom');
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ message: '500 Internal Server Error' });
  });
});

describe('registry', () => {
  it('builds each kernel service once, and gives plugins and the kernel the same one', () => {
    expect(kernel.resolve(kernelServices.events)).toBe(kernel.events);
    expect(kernel.resolve(kernelServices.jobs)).toBe(kernel.jobs);
    expect(kernel.resolve(kernelServices.files)).toBe(kernel.files);
    expect(kernel.resolve(kernelServices.rateLimits)).toBe(kernel.resolve(kernelServices.rateLimits));
    expect(kernel.resolve(kernelServices.database)).toBe(kernel.database);
  });
});

describe('authentication', () => {
  it('uses the identity a plugin provides', async () => {
    const response = await call('/api/v4/user', { headers: { 'PRIVATE-TOKEN': 'alice-token' } });
    expect(await response.json()).toEqual({ username: 'alice' });
  });

  it('answers a missing token with 401', async () => {
    const response = await call('/api/v4/user');
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: '401 Unauthorized' });
  });

  it('lets a route that checks scopes itself see a token with an unrelated scope', async () => {
    const own = await call('/api/v4/own-scopes', { method: 'POST', headers: { 'PRIVATE-TOKEN': 'alice-runner-token' } });
    expect(own.status).toBe(201);
    expect(await own.json()).toEqual({ username: 'alice', scopes: ['create_runner'] });
    const unknown = await call('/api/v4/own-scopes', { method: 'POST', headers: { 'PRIVATE-TOKEN': 'nope' } });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({ message: '401 Unauthorized' });

    const kernelChecked = await call('/api/v4/user', { headers: { 'PRIVATE-TOKEN': 'alice-runner-token' } });
    expect(kernelChecked.status).toBe(403);
    expect(await kernelChecked.json()).toMatchObject({ error: 'insufficient_scope', scope: 'api read_api' });
  });
});

describe('pagination', () => {
  beforeAll(async () => {
    await internalsOf(kernel.database).knex('notes').del();
    await internalsOf(kernel.database)
      .knex('notes')
      .insert([{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
  });

  it('writes the headers for a page', async () => {
    const response = await call('/api/v4/notes?per_page=2&extra=dropped');
    expect(response.status).toBe(200);
    expect(((await response.json()) as { name: string }[]).map((row) => row.name)).toEqual(['a', 'b']);
    const base = 'https://forge.test/api/v4/notes';
    expect(
      Object.fromEntries(
        ['x-total', 'x-total-pages', 'x-per-page', 'x-page', 'x-next-page', 'x-prev-page', 'link'].map((name) => [name, response.headers.get(name)]),
      ),
    ).toEqual({
      'x-total': '3',
      'x-total-pages': '2',
      'x-per-page': '2',
      'x-page': '1',
      'x-next-page': '2',
      'x-prev-page': '',
      link: `<${base}?page=2&per_page=2&sort=asc>; rel="next", <${base}?page=1&per_page=2&sort=asc>; rel="first", <${base}?page=2&per_page=2&sort=asc>; rel="last"`,
    });
  });

  it('answers per_page=0 with 400', async () => {
    const response = await call('/api/v4/notes?per_page=0');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'per_page has a value not allowed' });
  });
});

describe('input', () => {
  it('parses query arrays and hashes', async () => {
    const response = await call('/api/v4/search?a[]=x&a%5B%5D=y&filter[environment_scope]=prod&filter[other]=z');
    expect(await response.json()).toEqual({ a: ['x', 'y'], filter: { environment_scope: 'prod' } });
  });

  it('reads multipart fields and files', async () => {
    const form = new FormData();
    form.append('title', 'report');
    form.append('labels[]', 'a');
    form.append('labels[]', 'b');
    form.append('file', new Blob(['hello'], { type: 'text/plain' }), 'hello.txt');
    const response = await call('/api/v4/uploads', { method: 'POST', body: form });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ title: 'report', labels: ['a', 'b'], filename: 'hello.txt', type: 'text/plain', size: 5, text: 'hello' });
  });

  it('refuses a file past the upload limit a plugin set, and keeps no uploaded file after any request', async () => {
    uploadLimit = 10;
    const form = new FormData();
    form.append('title', 'report');
    form.append('file', new Blob(['eleven byte']), 'big.txt');
    const response = await call('/api/v4/uploads', { method: 'POST', body: form });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: '413 Request Entity Too Large' });
    const atLimit = new FormData();
    atLimit.append('title', 'report');
    atLimit.append('file', new Blob(['ten bytes!']), 'exact.txt');
    const taken = await call('/api/v4/uploads', { method: 'POST', body: atLimit });
    expect(taken.status).toBe(201);
    expect(await taken.json()).toMatchObject({ filename: 'exact.txt', size: 10, text: 'ten bytes!' });
    uploadLimit = 1024;
    const uploads = join(dataDir, 'tmp', 'uploads');
    expect(await readdir(uploads)).toEqual([]);
  });
});

describe('boot', () => {
  const tempDir = () => mkdtemp(join(tmpdir(), 'kernel-boot-'));

  it('applies each migration once across restarts', async () => {
    const dir = await tempDir();
    const config = { dataDir: dir, logLevel: 'silent' as const };
    await (await createKernel({ plugins: [demo], config })).stop();
    const again = await createKernel({ plugins: [demo], config });
    expect(await internalsOf(again.database).knex('forgekit_migrations').count({ n: '*' })).toEqual([{ n: kernelMigrations.length + 1 }]);
    await again.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a plugin that requires a service nobody provides', async () => {
    const missing = createServiceRef<string>('search.index');
    const consumer = definePlugin({ id: 'consumer', compatibility: '*', requires: [missing], register: () => {} });
    const dir = await tempDir();
    const boot = createKernel({ plugins: [consumer], config: { databaseUrl: ':memory:', dataDir: dir, logLevel: 'silent' } });
    await expect(boot).rejects.toThrow(BootError);
    await expect(boot).rejects.toThrow("Plugin 'consumer' requires service 'search.index', which no plugin provides (provided: none)");
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses authenticated routes without an identity provider', async () => {
    const plugin = definePlugin({
      id: 'lonely',
      compatibility: '*',
      register: (ctx) => ctx.routes(defineRoute({ method: 'GET', path: '/x', handler: () => null })),
    });
    const dir = await tempDir();
    await expect(createKernel({ plugins: [plugin], config: { databaseUrl: ':memory:', dataDir: dir, logLevel: 'silent' } })).rejects.toThrow(
      "Routes need authentication, but no plugin provides service 'kernel.identity'",
    );
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a plugin that resolves a service it does not list', async () => {
    const other = createServiceRef<string>('other.thing');
    const plugin = definePlugin({ id: 'sneaky', compatibility: '*', register: (ctx) => void ctx.resolve(other) });
    const dir = await tempDir();
    await expect(createKernel({ plugins: [plugin], config: { databaseUrl: ':memory:', dataDir: dir, logLevel: 'silent' } })).rejects.toThrow(
      "Plugin 'sneaky' resolves service 'other.thing' without listing it in 'requires'",
    );
    await rm(dir, { recursive: true, force: true });
  });

  it('gives an optional service when a plugin provides it, and undefined when none does', async () => {
    const greeting = createServiceRef<string>('greeter.greeting');
    const seen: (string | undefined)[] = [];
    const greeter = definePlugin({ id: 'greeter', compatibility: '*', provides: [greeting], register: (ctx) => ctx.provide(greeting, 'hello') });
    const listener = definePlugin({
      id: 'listener',
      compatibility: '*',
      optional: [greeting],
      register: (ctx) => void seen.push(ctx.resolveOptional(greeting)),
    });
    for (const plugins of [[listener, greeter], [listener]]) {
      const dir = await tempDir();
      const kernel = await createKernel({ plugins, config: { databaseUrl: ':memory:', dataDir: dir, logLevel: 'silent' } });
      await kernel.stop();
      await rm(dir, { recursive: true, force: true });
    }
    expect(seen).toEqual(['hello', undefined]);
  });
});

describe('route before hooks', () => {
  let kernel: Kernel;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'forgekit-before-'));
    kernel = await createKernel({ plugins: [demo], config: { databaseUrl: ':memory:', dataDir, logLevel: 'silent' } });
  });
  afterAll(async () => {
    await kernel.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
  const put = (id: string, body: string) =>
    kernel.fetch(new Request(`http://localhost/api/v4/guarded/${id}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body }));

  it('answers 404 for a missing resource before validating params', async () => {
    const response = await put('2', '{}');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: '404 Guarded Not Found' });
  });

  it('can report param errors in the message shape', async () => {
    const response = await kernel.fetch(new Request('http://localhost/api/v4/formatted', { method: 'POST' }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'name is missing' });
  });

  it('validates params once the resource is found, and hands it to the handler', async () => {
    expect(await (await put('1', '{}')).json()).toEqual({ error: 'name is missing' });
    expect(await (await put('1', '{"name":"x"}')).json()).toEqual({ found: '1', name: 'x' });
  });
});

describe('route guards', () => {
  const frozen = definePlugin({
    id: 'frozen',
    compatibility: '*',
    register(ctx) {
      ctx.guardRoutes({
        name: 'frozen.writes',
        applies: (route) => route.method !== 'GET' && route.path.startsWith('/api/v4/shelf/'),
        check: (req) => {
          if (req.params.id === 'frozen') throw forbidden();
        },
      });
      const shelf = (method: 'GET' | 'POST', path: string, exemptFrom?: string[]) =>
        defineRoute({ method, path, auth: 'none', exemptFrom, handler: (req) => ({ id: req.params.id, at: path }) });
      ctx.routes(shelf('GET', '/shelf/:id/items'), shelf('POST', '/shelf/:id/items'), shelf('POST', '/shelf/:id/thaw', ['frozen.writes']));
    },
  });
  let kernel: Kernel;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'forgekit-guards-'));
    kernel = await createKernel({ plugins: [frozen], config: { databaseUrl: ':memory:', dataDir, logLevel: 'silent' } });
  });
  afterAll(async () => {
    await kernel.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
  const call = (method: string, path: string) => kernel.fetch(new Request(`http://localhost/api/v4${path}`, { method }));

  it('checks the routes a guard applies to, before the route runs', async () => {
    const refused = await call('POST', '/shelf/frozen/items');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: '403 Forbidden' });
    expect((await call('POST', '/shelf/open/items')).status).toBe(201);
  });

  it('leaves alone the routes it does not apply to and those exempt from it', async () => {
    expect((await call('GET', '/shelf/frozen/items')).status).toBe(200);
    expect((await call('POST', '/shelf/frozen/thaw')).status).toBe(201);
    expect(kernel.routes.find((route) => route.path === '/api/v4/shelf/:id/thaw')?.exemptFrom).toEqual(['frozen.writes']);
  });

  it('refuses two guards of one name', async () => {
    const twice = definePlugin({
      id: 'twice',
      compatibility: '*',
      register(ctx) {
        const guard = { name: 'twice.rule', applies: () => true, check: () => {} };
        ctx.guardRoutes(guard);
        ctx.guardRoutes(guard);
      },
    });
    const dir = await mkdtemp(join(tmpdir(), 'forgekit-guards-'));
    await expect(createKernel({ plugins: [twice], config: { databaseUrl: ':memory:', dataDir: dir, logLevel: 'silent' } })).rejects.toThrow(
      "Plugin 'twice' guards routes as 'twice.rule', a name another guard has",
    );
    await rm(dir, { recursive: true, force: true });
  });
});
