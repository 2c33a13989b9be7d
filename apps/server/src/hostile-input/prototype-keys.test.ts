import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allPlugins } from '../plugins.js';

/** Requests whose parameter names try to reach `Object.prototype`, from an anonymous caller. */
const QUERIES = ['__proto__[x]=1', 'constructor[prototype][x]=1', 'a[__proto__][x]=1', 'a[][constructor][prototype][x]=1'];

describe('parameter names that reach a prototype', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ plugins: allPlugins });
  });
  afterAll(() => app.close());

  async function stillServing() {
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect((await app.get('/-/readiness')).status).toBe(200);
    expect((await app.get('/api/v4/projects', { token: 'admin' })).status).toBe(200);
    expect((await app.get(`/api/v4/projects/${app.project.id}`, { token: 'admin' })).status).toBe(200);
    expect((await app.get('/api/v4/users', { token: 'admin' })).status).toBe(200);
  }

  it.each(QUERIES)('in a query string: %s', async (query) => {
    const res = await app.get(`/api/v4/version?${query}`);
    expect(res.status).toBe(401);
    await stillServing();
  });

  it.each(QUERIES)('in a form body: %s', async (query) => {
    const form = await app.kernel.fetch(
      new Request(`http://localhost/api/v4/projects`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'PRIVATE-TOKEN': app.tokens.admin },
        body: `${query}&name=proto-form-${QUERIES.indexOf(query)}`,
      }),
    );
    expect(form.status).toBe(201);
    await stillServing();
  });

  it.each(QUERIES)('in a multipart field name: %s', async (query) => {
    const body = new FormData();
    body.append(query.split('=')[0]!, '1');
    body.append('name', `proto-multipart-${QUERIES.indexOf(query)}`);
    const res = await app.post('/api/v4/projects', body, { token: 'admin' });
    expect(res.status).toBe(201);
    await stillServing();
  });

  it('in a JSON body', async () => {
    const raw = '{"name":"proto-json","__proto__":{"x":1},"constructor":{"prototype":{"x":1}},"namespace":{"__proto__":{"x":1}}}';
    const res = await app.kernel.fetch(
      new Request('http://localhost/api/v4/projects', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'PRIVATE-TOKEN': app.tokens.admin },
        body: raw,
      }),
    );
    expect(res.status).toBe(201);
    await stillServing();
  });
});
