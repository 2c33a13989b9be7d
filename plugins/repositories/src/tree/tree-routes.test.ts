import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { commitFiles, createRepoTestApp } from '../testing/repo-test-app.js';

describe('GET /projects/:id/repository/tree', () => {
  let app: TestApp;
  let url: string;

  beforeAll(async () => {
    app = await createRepoTestApp();
    url = `/api/v4/projects/${app.project.id}/repository/tree`;
  });
  afterAll(() => app.close());

  it('answers 404 Tree Not Found while the repository is empty', async () => {
    expect(await app.get(url, { token: 'reporter' })).toMatchObject({ status: 404, body: { message: '404 Tree Not Found' } });
  });

  it('lists the root, directories first, with ids and modes', async () => {
    await commitFiles(app, app.project.id, { 'z.txt': 'z', 'src/a.ts': 'a', 'src/lib/b.ts': 'b', 'docs/readme.md': 'r' });
    const res = await app.get(url, { token: 'reporter' });
    expect(res.status).toBe(200);
    expect(res.body.map((entry: { path: string; type: string }) => [entry.path, entry.type])).toEqual([
      ['docs', 'tree'],
      ['src', 'tree'],
      ['z.txt', 'blob'],
    ]);
    expect(res.body[2]).toMatchObject({ name: 'z.txt', mode: '100644' });
    expect(res.body[0]).toMatchObject({ name: 'docs', mode: '040000' });
    expect(res.body[2].id).toMatch(/^[0-9a-f]{40}$/);
  });

  it('lists a subdirectory, recursively on request', async () => {
    const sub = await app.get(url, { token: 'reporter', query: { path: 'src' } });
    expect(sub.body.map((entry: { path: string }) => entry.path)).toEqual(['src/lib', 'src/a.ts']);
    expect(sub.body[1].name).toBe('a.ts');
    const deep = await app.get(url, { token: 'reporter', query: { path: 'src', recursive: 'true' } });
    expect(deep.body.map((entry: { path: string }) => entry.path)).toEqual(['src/lib', 'src/a.ts', 'src/lib/b.ts']);
  });

  it('paginates with offsets, keyset tokens, or not at all', async () => {
    const page = await app.get(url, { token: 'reporter', query: { recursive: 'true', per_page: 2, page: 2 } });
    expect(page.body).toHaveLength(2);
    expect(page.headers.get('x-total')).toBe('7');
    const first = await app.get(url, { token: 'reporter', query: { recursive: 'true', per_page: 3, pagination: 'keyset' } });
    expect(first.body).toHaveLength(3);
    expect(first.headers.get('link')).toContain(`page_token=${first.body[2].id}`);
    const next = await app.get(url, { token: 'reporter', query: { recursive: 'true', per_page: 3, pagination: 'keyset', page_token: first.body[2].id } });
    expect(next.body[0].path).not.toBe(first.body[2].path);
    const all = await app.get(url, { token: 'reporter', query: { recursive: 'true', pagination: 'none' } });
    expect(all.body).toHaveLength(7);
    expect(await app.get(url, { token: 'reporter', query: { pagination: 'none' } })).toMatchObject({
      status: 400,
      body: { error: 'pagination cannot be "none" unless "recursive" is true' },
    });
  });

  it('answers 404s for an unknown ref or path', async () => {
    expect(await app.get(url, { token: 'reporter', query: { ref: 'nope' } })).toMatchObject({ status: 404, body: { message: '404 Tree Not Found' } });
    expect(await app.get(url, { token: 'reporter', query: { path: 'nope' } })).toMatchObject({
      status: 404,
      body: { message: '404 invalid revision or path Not Found' },
    });
    expect(await app.get(url, { token: 'reporter', query: { path: 'z.txt' } })).toMatchObject({ status: 404 });
  });

  it('is readable by reporters only in a private project', async () => {
    expect(await app.get(url, { token: 'guest' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await app.get(url, { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
  });
});
