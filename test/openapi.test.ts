/**
 * The OpenAPI document as a client meets it: fetched over HTTP with no token, valid OpenAPI
 * 3.1 by a maintained validator, and describing what the server answers, successes
 * (where a route declares its answer) and the kernel's errors alike.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, type Api } from './support/gitbeaker.js';
import { type ListeningServer, startListeningServer } from './support/listening-server.js';
import { documentChecker } from './support/openapi-document.js';

let server: ListeningServer;
let api: Api;
let document: { openapi: string; paths: Record<string, Record<string, unknown>> };
let check: ReturnType<typeof documentChecker>;

beforeAll(async () => {
  server = await startListeningServer();
  api = clientFor(server, server.rootToken);
  const response = await fetch(`${server.url}/api/v4/openapi.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json');
  document = (await response.json()) as typeof document;
  check = documentChecker(document);
});
afterAll(() => server?.close());

/** Calls the API with fetch and checks the answer against the document. */
async function answerOf(method: string, path: string, init: RequestInit = {}) {
  const response = await fetch(`${server.url}${path}`, { method, ...init });
  const text = await response.text();
  const contentType = response.headers.get('content-type')?.split(';')[0] ?? 'application/json';
  const body = contentType === 'application/json' ? JSON.parse(text) : text;
  return { status: response.status, body, ...check(method, path.split('?')[0]!, response.status, body, contentType) };
}

describe('/api/v4/openapi.json', () => {
  it('is valid OpenAPI 3.1, served to anyone', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes the routes clients call, with their parameters', () => {
    for (const [method, path] of [
      ['get', '/api/v4/user'],
      ['get', '/api/v4/projects'],
      ['post', '/api/v4/projects'],
      ['get', '/api/v4/projects/{id}/variables'],
      ['get', '/api/v4/projects/{id}/issues'],
      ['get', '/-/readiness'],
      ['get', '/api/v4/openapi.json'],
    ] as const) {
      expect(document.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    const variables = document.paths['/api/v4/projects/{id}/variables']!.post as {
      requestBody: { content: Record<string, { schema: { required: string[] } }> };
    };
    expect(variables.requestBody.content['application/json']!.schema.required).toEqual(['key', 'value']);
  });

  it('is the same document for every caller', async () => {
    const again = await (await fetch(`${server.url}/api/v4/openapi.json`, { headers: { 'PRIVATE-TOKEN': server.rootToken } })).json();
    expect(again).toEqual(document);
  });
});

describe('answers match the document', () => {
  it('the instance routes, through gitbeaker and as a load balancer calls them', async () => {
    const metadata = await api.Metadata.show({ showExpanded: true });
    expect(check('GET', '/api/v4/metadata', metadata.status, metadata.data).problems).toEqual([]);
    for (const path of ['/api/v4/version', '/-/liveness', '/-/readiness', '/-/readiness?all=1', '/-/health']) {
      const answer = await answerOf('GET', path, { headers: { 'PRIVATE-TOKEN': server.rootToken } });
      expect(answer.status, path).toBe(200);
      expect(answer.problems, path).toEqual([]);
    }
  });

  it('the user routes, for the admin and for an anonymous caller', async () => {
    const me = await api.Users.showCurrentUser({ showExpanded: true });
    expect(check('GET', '/api/v4/user', me.status, me.data).problems).toEqual([]);
    const users = await api.Users.all({ perPage: 5, maxPages: 1, showExpanded: true });
    expect(users.data.length).toBeGreaterThan(0);
    expect(check('GET', '/api/v4/users', 200, users.data).problems).toEqual([]);
    const one = await api.Users.show(me.data.id, { showExpanded: true });
    expect(check('GET', `/api/v4/users/${me.data.id}`, one.status, one.data).problems).toEqual([]);
    const anonymous = await answerOf('GET', `/api/v4/users?username=${me.data.username}`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.problems).toEqual([]);
  });

  it('a body that breaks a declared schema is caught', () => {
    expect(check('GET', '/api/v4/version', 200, { version: 17 }).problems).not.toEqual([]);
    expect(check('GET', '/api/v4/user', 418, {}).problems).toEqual([expect.stringContaining('lists no 418 answer')]);
  });

  it("the kernel's errors: no token, an unknown token, a missing scope, invalid params, unknown records", async () => {
    const me = await api.Users.showCurrentUser();
    const { token: readOnly } = await api.Users.createPersonalAccessToken(me.id, 'read-only', ['read_user']);
    const cases = [
      await answerOf('GET', '/api/v4/user'),
      await answerOf('GET', '/api/v4/user', { headers: { 'PRIVATE-TOKEN': 'no-such-token' } }),
      await answerOf('POST', '/api/v4/projects', { headers: { 'PRIVATE-TOKEN': readOnly!, 'Content-Type': 'application/json' }, body: '{"name":"x"}' }),
      await answerOf('GET', '/api/v4/users?active=maybe', { headers: { 'PRIVATE-TOKEN': server.rootToken } }),
      await answerOf('POST', '/api/v4/projects', { headers: { 'PRIVATE-TOKEN': server.rootToken } }),
      await answerOf('GET', '/api/v4/users/2147483000', { headers: { 'PRIVATE-TOKEN': server.rootToken } }),
      await answerOf('GET', '/api/v4/projects/2147483000/variables', { headers: { 'PRIVATE-TOKEN': server.rootToken } }),
    ];
    expect(cases.map(({ status, body }) => [status, body])).toEqual([
      [401, { message: '401 Unauthorized' }],
      [401, { message: '401 Unauthorized' }],
      [
        403,
        {
          error: 'insufficient_scope',
          error_description: 'The request requires higher privileges than provided by the access token.',
          scope: 'api',
        },
      ],
      [400, { error: 'active is invalid' }],
      [400, { error: 'name, path are missing, at least one parameter must be provided' }],
      [404, { message: '404 User Not Found' }],
      [404, { message: '404 Project Not Found' }],
    ]);
    for (const answer of cases) expect(answer.problems, `${answer.template} ${answer.status}`).toEqual([]);
  });
});
