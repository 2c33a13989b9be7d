import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allPlugins } from '../plugins.js';

const MiB = 1024 * 1024;
const LIMIT = 2 * MiB;

/** A body that sends `chunks` pieces of `size` bytes, counting how many were pulled, and never ends unless `end`. */
function countedBody(chunks: number, size: number, end = true) {
  const state = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled >= chunks) {
        if (end) controller.close();
        return;
      }
      state.pulled++;
      controller.enqueue(new Uint8Array(size).fill(0x61));
    },
  });
  return { stream, state };
}

describe('request bodies', () => {
  let app: TestApp;
  let variables: string;
  beforeAll(async () => {
    app = await createTestApp({ plugins: allPlugins, config: { maxBodySize: LIMIT } });
    variables = `/api/v4/projects/${app.project.id}/variables`;
  });
  afterAll(() => app.close());

  const send = (path: string, init: RequestInit & { duplex?: 'half' }) => app.kernel.fetch(new Request(`http://localhost${path}`, init));
  const variableCount = async () => Number((await app.get(variables, { token: 'maintainer' })).headers.get('x-total'));

  it('answers an anonymous caller with 401 without reading its body', async () => {
    const { stream, state } = countedBody(1000, 64 * 1024, false);
    const res = await send(variables, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: stream, duplex: 'half' });
    expect(res.status).toBe(401);
    expect(state.pulled).toBeLessThan(4);
  });

  it('refuses a body that declares more than the limit, before reading it', async () => {
    const { stream, state } = countedBody(1000, 64 * 1024, false);
    const res = await send(variables, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(50 * MiB), 'PRIVATE-TOKEN': app.tokens.maintainer },
      body: stream,
      duplex: 'half',
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: '413 Request Entity Too Large' });
    expect(state.pulled).toBeLessThan(4);
  });

  it('refuses a chunked body once it passes the limit, and stores nothing', async () => {
    const before = await variableCount();
    const { stream, state } = countedBody(800, 64 * 1024);
    const res = await send(variables, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'PRIVATE-TOKEN': app.tokens.maintainer },
      body: stream,
      duplex: 'half',
    });
    expect(res.status).toBe(413);
    expect(state.pulled).toBeLessThan(LIMIT / (64 * 1024) + 4);
    expect(await variableCount()).toBe(before);
  });

  it('refuses a variable value past the body limit and keeps the variable list as it was', async () => {
    const before = await variableCount();
    const res = await app.post(variables, { key: 'HUGE', value: 'x'.repeat(LIMIT + 1) }, { token: 'maintainer' });
    expect(res.status).toBe(413);
    expect(await variableCount()).toBe(before);
  });

  it('takes a body just under the limit', async () => {
    const form = new FormData();
    form.append('description', 'd'.repeat(1000));
    const ok = await app.put(`/api/v4/projects/${app.project.id}`, form, { token: 'maintainer' });
    expect(ok.status).toBe(200);
  });

  it('counts files sent to a route that takes no uploads against the body limit', async () => {
    const form = new FormData();
    form.append('name', 'with-a-file');
    form.append('file', new Blob([new Uint8Array(LIMIT + 10)]), 'big.bin');
    const res = await app.post('/api/v4/projects', form, { token: 'admin' });
    expect(res.status).toBe(413);
    const small = new FormData();
    small.append('name', 'with-a-small-file');
    small.append('file', new Blob([new Uint8Array(10)]), 'small.bin');
    expect((await app.post('/api/v4/projects', small, { token: 'admin' })).status).toBe(201);
  });

  it('answers a multipart body cut off inside a file part with 400, and keeps serving', async () => {
    const boundary = 'cut-off';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\ncut\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\npartial`;
    const res = await send('/api/v4/projects', {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': app.tokens.admin, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(res.status).toBe(400);
    expect((await app.get('/-/readiness')).status).toBe(200);
  });
});

describe('malformed strings', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ plugins: allPlugins });
  });
  afterAll(() => app.close());

  const send = (path: string, init: RequestInit = {}) => app.kernel.fetch(new Request(`http://localhost${path}`, init));
  const expectBadRequest = async (res: Response) => {
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('Bad Request');
  };
  const auth = (type: string) => ({ 'PRIVATE-TOKEN': app.tokens.maintainer, 'Content-Type': type });
  const projects = () => `/api/v4/projects/${app.project.id}`;

  it.each([
    ['a NUL byte in the query', '/api/v4/projects?search=a%00b'],
    ['a NUL byte in a nested query value', '/api/v4/projects?a[b][]=%00'],
    ['a NUL byte in a query name', '/api/v4/projects?a%00=1'],
    ['invalid UTF-8 in the query', '/api/v4/projects?search=%FF%FE'],
    ['an invalid escape in the query', '/api/v4/projects?search=100%'],
    ['a NUL byte in the path', '/api/v4/projects/a%00b'],
    ['an invalid escape in the path', '/api/v4/projects/%E0%A4%A'],
  ])('refuses %s', async (_name, path) => {
    await expectBadRequest(await send(path, { headers: { 'PRIVATE-TOKEN': app.tokens.admin } }));
  });

  it('refuses NUL bytes in form, JSON and multipart bodies, and changes nothing', async () => {
    const before = (await app.get(projects(), { token: 'maintainer' })).body.description;
    await expectBadRequest(await send(projects(), { method: 'PUT', headers: auth('application/x-www-form-urlencoded'), body: 'description=a%00b' }));
    await expectBadRequest(await send(projects(), { method: 'PUT', headers: auth('application/json'), body: JSON.stringify({ description: 'a\u0000b' }) }));
    await expectBadRequest(
      await send(projects(), { method: 'PUT', headers: auth('application/json'), body: JSON.stringify({ topics: [{ deep: ['\u0000'] }] }) }),
    );
    const form = new FormData();
    form.append('description', 'a\u0000b');
    await expectBadRequest(await send(projects(), { method: 'PUT', headers: { 'PRIVATE-TOKEN': app.tokens.maintainer }, body: form }));
    expect((await app.get(projects(), { token: 'maintainer' })).body.description).toBe(before);
  });

  it('refuses a body that is not UTF-8', async () => {
    const body = new Uint8Array([...Buffer.from('description='), 0xff, 0xfe]);
    await expectBadRequest(await send(projects(), { method: 'PUT', headers: auth('application/x-www-form-urlencoded'), body }));
  });

  it('refuses a NUL byte in Basic credentials', async () => {
    const basic = Buffer.from(`root:${'\u0000'}`).toString('base64');
    const res = await send('/root/project.git/info/refs?service=git-upload-pack', { headers: { Authorization: `Basic ${basic}` } });
    await expectBadRequest(res);
  });

  it("answers JSON nested past GitLab's depth with its text", async () => {
    const deep = `${'{"a":'.repeat(40)}1${'}'.repeat(40)}`;
    const res = await send(projects(), { method: 'PUT', headers: auth('application/json'), body: deep });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'Parameters nested too deeply' });
    const arrays = `{"topics":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const deeper = await send(projects(), { method: 'PUT', headers: auth('application/json'), body: arrays });
    expect(deeper.status).toBe(400);
  });

  it('takes JSON nested within the depth', async () => {
    const res = await send(projects(), {
      method: 'PUT',
      headers: auth('application/json'),
      body: `{"description":"ok","x":${'['.repeat(30)}${']'.repeat(30)}}`,
    });
    expect(res.status).toBe(200);
  });
});

describe('multipart field names', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ plugins: allPlugins });
  });
  afterAll(() => app.close());

  it('answers a name nested past 32 levels with 400, as query strings and forms get', async () => {
    const form = new FormData();
    form.append(`user_id${'[a]'.repeat(33)}`, '1');
    const res = await app.post(`/api/v4/projects/${app.project.id}/members`, form, { token: 'maintainer' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'There was a problem with the request parameters' });
  });
});
