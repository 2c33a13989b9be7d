import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdentityProvider } from '../auth/identity.js';
import * as f from '../http/fields.js';
import { params, rules } from '../http/params.js';
import { noContent, page } from '../http/responses.js';
import { defineRoute } from '../http/route.js';
import { createKernel, type Kernel } from '../kernel.js';
import { definePlugin } from '../plugin/define-plugin.js';
import { kernelServices } from '../plugin/kernel-services.js';
import { openApiPath } from './build-document.js';

const nobody: IdentityProvider = { findCredential: async () => null, findUser: async () => null, denialReason: () => null };

const widgets = definePlugin({
  id: 'widgets',
  compatibility: '*',
  provides: [kernelServices.identity],
  register(ctx) {
    ctx.provide(kernelServices.identity, nobody);
    ctx.routes(
      defineRoute({
        method: 'GET',
        path: '/projects/:id/widgets',
        auth: 'optional',
        paginated: true,
        input: params({
          state: f.optional(f.values(['open', 'closed']), 'open'),
          labels: f.optional(f.commaList()),
          iids: f.optional(f.array(f.integer())),
          filter: f.optional(f.hash({ scope: f.string() })),
          updated_after: f.optional(f.datetime()),
        }),
        response: { schema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } },
        handler: () => page([], 0),
      }),
      defineRoute({
        method: 'POST',
        path: '/projects/:id/widgets',
        input: params(
          { id: f.id(), name: f.string(), weight: f.optional(f.integer({ min: 0, max: 9 })), due: f.optional(f.date()) },
          rules.allOrNoneOf('weight', 'due'),
        ),
        handler: () => ({}),
      }),
      defineRoute({
        method: 'DELETE',
        path: '/projects/:id/widgets/:widget_id',
        auth: 'admin',
        response: { status: 204, alternatives: { 202: null, 200: { type: 'object' } }, errors: [403, 409] },
        handler: () => noContent(),
      }),
      defineRoute({
        method: 'POST',
        path: '/:namespace/:project/push',
        raw: true,
        auth: 'required',
        basicAuth: true,
        streamBody: true,
        handler: () => ({}),
      }),
    );
  },
});

let kernel: Kernel;
let dataDir: string;
let document: Record<string, any>;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'forgekit-openapi-'));
  kernel = await createKernel({ plugins: [widgets], config: { databaseUrl: ':memory:', dataDir, logLevel: 'silent' } });
  document = kernel.openApi();
});

afterAll(async () => {
  await kernel.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the OpenAPI document', () => {
  it('writes path parameters as OpenAPI does', () => {
    expect(openApiPath('/api/v4/projects/:id/widgets/:widget_id')).toBe('/api/v4/projects/{id}/widgets/{widget_id}');
  });

  it('lists every mounted route, the kernel own ones included, tagged by plugin', () => {
    const operations = Object.entries(document.paths as Record<string, Record<string, { tags: string[] }>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => `${method} ${path} ${operation.tags.join()}`),
    );
    expect(operations.sort()).toEqual(
      [
        'get /api/v4/projects/{id}/widgets widgets',
        'post /api/v4/projects/{id}/widgets widgets',
        'delete /api/v4/projects/{id}/widgets/{widget_id} widgets',
        'post /{namespace}/{project}/push widgets',
        'get /-/metrics kernel',
        'get /api/v4/openapi.json kernel',
      ].sort(),
    );
    expect(document.openapi).toBe('3.1.0');
    expect(document.tags).toEqual([{ name: 'widgets' }, { name: 'kernel' }]);
  });

  it('describes a paginated list: query parameters as Rack reads them, page parameters, item schema and headers', () => {
    const list = document.paths['/api/v4/projects/{id}/widgets'].get;
    expect(list.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'state', in: 'query', required: false, schema: { type: 'string', enum: ['open', 'closed'], default: 'open' } },
      { name: 'labels', in: 'query', required: false, schema: { type: 'array', items: { type: 'string' } }, style: 'form', explode: false },
      {
        name: 'iids[]',
        in: 'query',
        required: false,
        schema: { type: 'array', items: { type: 'integer', minimum: -2147483648, maximum: 2147483647 } },
        style: 'form',
        explode: true,
      },
      {
        name: 'filter',
        in: 'query',
        required: false,
        schema: { type: 'object', properties: { scope: { type: 'string' } }, required: ['scope'] },
        style: 'deepObject',
        explode: true,
      },
      { name: 'updated_after', in: 'query', required: false, schema: { type: 'string', format: 'date-time' } },
      { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 1 } },
      { name: 'per_page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
    ]);
    const ok = list.responses['200'];
    expect(ok.content['application/json'].schema).toEqual({
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
    });
    expect(Object.keys(ok.headers)).toEqual(['X-Total', 'X-Total-Pages', 'X-Per-Page', 'X-Page', 'X-Next-Page', 'X-Prev-Page', 'Link']);
    expect(Object.keys(list.responses)).toEqual(['200', '400', '401', '403', '404', '500']);
    expect(list.description).toBe('Token scopes: `api`, `read_api`.');
    // Anonymous callers are allowed: the empty requirement comes first.
    expect(list.security).toEqual([{}, { private_token: [] }, { bearer: [] }, { private_token_param: [] }, { access_token_param: [] }]);
  });

  it('describes a write: the body schema with its required fields, 201, and the size limit', () => {
    const create = document.paths['/api/v4/projects/{id}/widgets'].post;
    expect(create.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER } },
    ]);
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, weight: { type: 'integer', minimum: 0, maximum: 9 }, due: { type: 'string', format: 'date' } },
      required: ['name'],
      allOf: [{ anyOf: [{ required: ['weight', 'due'] }, { not: { anyOf: [{ required: ['weight'] }, { required: ['due'] }] } }] }],
    };
    expect(create.description).toBe('All or none of: `weight`, `due`.\n\nToken scopes: `api`.');
    expect(create.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema }, 'multipart/form-data': { schema } },
    });
    expect(Object.keys(create.responses)).toEqual(['201', '400', '401', '403', '404', '413', '500']);
    expect(create.security).toEqual([{ private_token: [] }, { bearer: [] }, { private_token_param: [] }, { access_token_param: [] }]);
  });

  it('takes a declared status, streamed bodies and Basic auth from the route', () => {
    const remove = document.paths['/api/v4/projects/{id}/widgets/{widget_id}'].delete;
    expect(remove.responses['204']).toEqual({ description: 'No content' });
    expect(remove.responses['400']).toBeUndefined();
    expect(remove.responses['202']).toEqual({ description: 'Accepted' });
    expect(remove.responses['200']).toEqual({ description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } });
    // A refusal the route declares joins the kernel's description of that status.
    expect(remove.responses['403'].content['application/json'].schema.anyOf).toEqual([
      { $ref: '#/components/schemas/MessageError' },
      { $ref: '#/components/schemas/TokenError' },
      { $ref: '#/components/schemas/FrameworkError' },
    ]);
    expect(remove.responses['409'].content['application/json'].schema.anyOf).toEqual([
      { $ref: '#/components/schemas/MessageError' },
      { $ref: '#/components/schemas/FrameworkError' },
    ]);
    expect(remove.responses['409'].description).toBe('Conflict');
    expect(remove.description).toBe('Administrators only.\n\nToken scopes: `api`.');
    const push = document.paths['/{namespace}/{project}/push'].post;
    expect(push.requestBody).toEqual({ content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } });
    expect(push.security.at(-1)).toEqual({ basic: [] });
  });

  it('answers routes without auth to anyone, with no 401 or 403', () => {
    const served = document.paths['/api/v4/openapi.json'].get;
    expect(served.security).toEqual([]);
    expect(served.description).toBeUndefined();
    expect(Object.keys(served.responses)).toEqual(['200', '404', '500']);
  });

  it('is served at /api/v4/openapi.json to anonymous callers, as built', async () => {
    const response = await kernel.fetch(new Request('http://localhost/api/v4/openapi.json'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(document)));
    expect(kernel.openApi()).toBe(document);
  });
});
