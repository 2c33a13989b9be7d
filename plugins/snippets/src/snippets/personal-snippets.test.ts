import { coreTokensRef, coreUsersRef } from '@forgekit/plugin-core/contracts';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { notesPlugin } from '@forgekit/plugin-notes';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { repositoryReadRef } from '@forgekit/plugin-repositories/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snippetsPlugin } from '../plugin.js';

let app: TestApp;
let external: string;

const files = [
  { file_path: 'hello.rb', content: 'puts "hello"\n' },
  { file_path: 'lib/util.rb', content: 'module Util; end\n' },
];

beforeAll(async () => {
  app = await createTestApp({ plugins: [repositoriesPlugin, notesPlugin, snippetsPlugin] });
  const user = await app.kernel.resolve(coreUsersRef).create({ username: 'outsider', name: 'Outsider', email: 'outsider@example.com', external: true });
  external = (await app.kernel.resolve(coreTokensRef).create({ userId: user.id, name: 't', scopes: ['api'] })).secret;
});
afterAll(() => app.close());

const create = async (body: Record<string, unknown>, token = 'developer') => {
  const res = await app.post('/api/v4/snippets', body, { token });
  expect(res.status).toBe(201);
  return res.body as { id: number; web_url: string; files: { path: string; raw_url: string }[] };
};

describe('POST /snippets', () => {
  it('creates a multi-file snippet in a git repository and answers it with its files and URLs', async () => {
    const res = await app.post('/api/v4/snippets', { title: 'Two files', description: 'about', visibility: 'public', files }, { token: 'developer' });
    expect(res.status).toBe(201);
    const id = res.body.id;
    const base = res.body.web_url.slice(0, res.body.web_url.indexOf('/-/snippets'));
    const host = new URL(base).hostname;
    expect(res.body).toEqual({
      id: expect.any(Number),
      title: 'Two files',
      description: 'about',
      visibility: 'public',
      author: expect.objectContaining({ id: app.users.developer.id, username: 'developer' }),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      project_id: null,
      web_url: `${base}/-/snippets/${id}`,
      raw_url: `${base}/-/snippets/${id}/raw`,
      file_name: 'hello.rb',
      imported: false,
      imported_from: 'none',
      expires_at: null,
      ssh_url_to_repo: `git@${host}:snippets/${id}.git`,
      http_url_to_repo: `${base}/snippets/${id}.git`,
      files: [
        { path: 'hello.rb', raw_url: `${base}/-/snippets/${id}/raw/main/hello.rb` },
        { path: 'lib/util.rb', raw_url: `${base}/-/snippets/${id}/raw/main/lib/util.rb` },
      ],
    });
    const reads = app.kernel.resolve(repositoryReadRef);
    const repository = await reads.find({ kind: 'snippet', containerId: id });
    const head = await reads.resolveCommit(repository!, 'main');
    expect((await reads.readBlob(repository!, head!, 'lib/util.rb'))?.data.toString()).toBe('module Util; end\n');
  });

  it('takes the deprecated content and file_name, with visibility internal by default', async () => {
    const res = await app.post('/api/v4/snippets', { title: 'Old style', content: 'text', file_name: 'a.txt' }, { token: 'developer' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ visibility: 'internal', file_name: 'a.txt', files: [{ path: 'a.txt' }] });
  });

  it('refuses files and content together, neither, content without file_name and blank values', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ title: 't', files, content: 'x', file_name: 'x' }, 'files, content are mutually exclusive'],
      [{ title: 't' }, 'files, content are missing, exactly one parameter must be provided'],
      [{ title: 't', content: 'x' }, 'file_name is missing'],
      [{ files }, 'title is missing, title is empty'],
      [{ title: '', files }, 'title is empty'],
      [{ title: 't', files: [{ file_path: 'a', content: '' }] }, 'files[0][content] is empty'],
      [{ title: 't', files, visibility: 'secret' }, 'visibility does not have a valid value'],
    ];
    for (const [body, error] of cases) {
      const res = await app.post('/api/v4/snippets', body, { token: 'developer' });
      expect([res.status, res.body]).toEqual([400, { error }]);
    }
  });

  it('refuses path traversal and a title past 255 characters', async () => {
    const traversal = await app.post('/api/v4/snippets', { title: 't', files: [{ file_path: '../evil', content: 'x' }] }, { token: 'developer' });
    expect([traversal.status, traversal.body]).toEqual([400, { error: 'files[0][file_path] should be a valid file path' }]);
    const long = await app.post('/api/v4/snippets', { title: 'x'.repeat(256), files }, { token: 'developer' });
    expect([long.status, long.body]).toEqual([400, { message: { title: ['is too long (maximum is 255 characters)'] } }]);
  });

  it('refuses external users (403) and anonymous callers (401)', async () => {
    const res = await app.post('/api/v4/snippets', { title: 't', files }, { token: external });
    expect([res.status, res.body]).toEqual([403, { message: '403 Forbidden' }]);
    expect((await app.post('/api/v4/snippets', { title: 't', files })).status).toBe(401);
  });
});

describe('reading personal snippets', () => {
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    for (const visibility of ['public', 'internal', 'private']) {
      ids[visibility] = (await create({ title: `${visibility} one`, visibility, files: [{ file_path: 'f.txt', content: `${visibility}!` }] }, 'reporter')).id;
    }
  });

  it('follows the read matrix, with 404 Snippet Not Found for what the caller may not see', async () => {
    const matrix: [string | undefined, string, number][] = [
      ['admin', 'private', 200],
      ['reporter', 'private', 200],
      ['guest', 'public', 200],
      ['guest', 'internal', 200],
      ['guest', 'private', 404],
      [undefined, 'public', 200],
      [undefined, 'internal', 404],
      [undefined, 'private', 404],
      [external, 'internal', 404],
      [external, 'public', 200],
    ];
    for (const [token, visibility, status] of matrix) {
      for (const suffix of ['', '/raw', '/files/main/f.txt/raw']) {
        const res = await app.get(`/api/v4/snippets/${ids[visibility]}${suffix}`, { token });
        expect([token, visibility, suffix, res.status]).toEqual([token, visibility, suffix, status]);
        if (status === 404) expect(res.body).toEqual({ message: '404 Snippet Not Found' });
      }
    }
  });

  it('answers the first file raw, inline with its name', async () => {
    const res = await app.get(`/api/v4/snippets/${ids.public}/raw`);
    expect(res.status).toBe(200);
    expect(res.text).toBe('public!');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="f.txt"; filename*=UTF-8''f.txt`);
  });

  it('reads a file at any ref, with GitLab errors for an unknown ref, file or bad path', async () => {
    const snippet = await create({ title: 'refs', visibility: 'public', files: [{ file_path: 'a.txt', content: 'one' }] });
    const first = await app.get(`/api/v4/snippets/${snippet.id}`);
    const reads = app.kernel.resolve(repositoryReadRef);
    const repository = await reads.find({ kind: 'snippet', containerId: snippet.id });
    const sha = await reads.resolveCommit(repository!, 'main');
    await app.put(`/api/v4/snippets/${snippet.id}`, { files: [{ action: 'update', file_path: 'a.txt', content: 'two' }] }, { token: 'developer' });
    expect((await app.get(`/api/v4/snippets/${snippet.id}/files/main/a.txt/raw`)).text).toBe('two');
    expect((await app.get(`/api/v4/snippets/${snippet.id}/files/${sha}/a.txt/raw`)).text).toBe('one');
    expect(first.status).toBe(200);
    const missingRef = await app.get(`/api/v4/snippets/${snippet.id}/files/nope/a.txt/raw`);
    expect([missingRef.status, missingRef.body]).toEqual([404, { message: '404 Reference Not Found' }]);
    const missingFile = await app.get(`/api/v4/snippets/${snippet.id}/files/main/b.txt/raw`);
    expect([missingFile.status, missingFile.body]).toEqual([404, { message: '404 File Not Found' }]);
    const traversal = await app.get(`/api/v4/snippets/${snippet.id}/files/main/${encodeURIComponent('../a.txt')}/raw`);
    expect([traversal.status, traversal.body]).toEqual([400, { error: 'file_path should be a valid file path' }]);
  });

  it('lists only the caller’s own snippets on /snippets, newest first, and public ones on /snippets/public', async () => {
    const mine = await app.get('/api/v4/snippets', { token: 'reporter' });
    expect(mine.status).toBe(200);
    expect(mine.body.map((s: { id: number }) => s.id)).toEqual([ids.private, ids.internal, ids.public]);
    expect(mine.headers.get('x-total')).toBe('3');
    expect(Object.keys(mine.body[0])).toEqual([
      'id',
      'title',
      'description',
      'visibility',
      'author',
      'created_at',
      'updated_at',
      'project_id',
      'web_url',
      'raw_url',
      'file_name',
      'imported',
      'imported_from',
    ]);
    const pub = await app.get('/api/v4/snippets/public', { token: 'guest' });
    expect(pub.body.every((s: { visibility: string }) => s.visibility === 'public')).toBe(true);
    expect(pub.body.map((s: { id: number }) => s.id)).toContain(ids.public);
    expect((await app.get('/api/v4/snippets')).status).toBe(401);
    const future = await app.get('/api/v4/snippets', { token: 'reporter', query: { created_after: '2999-01-01T00:00:00Z' } });
    expect(future.body).toEqual([]);
  });
});

describe('PUT /snippets/:id', () => {
  it('applies create, update, move and delete actions in one commit', async () => {
    const snippet = await create({ title: 'edit me', files });
    const res = await app.put(
      `/api/v4/snippets/${snippet.id}`,
      {
        title: 'edited',
        files: [
          { action: 'create', file_path: 'new.md', content: '# new' },
          { action: 'update', file_path: 'hello.rb', content: 'puts "bye"' },
          { action: 'move', previous_path: 'lib/util.rb', file_path: 'util.rb' },
        ],
      },
      { token: 'developer' },
    );
    expect(res.status).toBe(200);
    expect(res.body.title).toBe('edited');
    expect(res.body.files.map((f: { path: string }) => f.path)).toEqual(['hello.rb', 'new.md', 'util.rb']);
    expect((await app.get(`/api/v4/snippets/${snippet.id}/files/main/util.rb/raw`, { token: 'developer' })).text).toBe('module Util; end\n');
    const deleted = await app.put(`/api/v4/snippets/${snippet.id}`, { files: [{ action: 'delete', file_path: 'hello.rb' }] }, { token: 'developer' });
    expect(deleted.body).toMatchObject({ file_name: 'new.md', files: [{ path: 'new.md' }, { path: 'util.rb' }] });
    const list = await app.get('/api/v4/snippets', { token: 'developer' });
    expect(list.body.find((s: { id: number }) => s.id === snippet.id).file_name).toBe('new.md');
  });

  it('refuses content on a multi-file snippet, move without previous_path (422) and traversal', async () => {
    const snippet = await create({ title: 'multi', files });
    const content = await app.put(`/api/v4/snippets/${snippet.id}`, { content: 'x' }, { token: 'developer' });
    expect([content.status, content.body]).toEqual([400, { message: { error: 'To update Snippets with multiple files, you must use the `files` parameter' } }]);
    const move = await app.put(`/api/v4/snippets/${snippet.id}`, { files: [{ action: 'move', file_path: 'x.rb' }] }, { token: 'developer' });
    expect([move.status, move.body]).toEqual([422, { message: { error: 'Snippet actions have invalid data' } }]);
    const traversal = await app.put(
      `/api/v4/snippets/${snippet.id}`,
      { files: [{ action: 'update', file_path: '../x', content: 'x' }] },
      { token: 'developer' },
    );
    expect([traversal.status, traversal.body]).toEqual([400, { error: 'files[0][file_path] should be a valid file path' }]);
    const missingFile = await app.put(
      `/api/v4/snippets/${snippet.id}`,
      { files: [{ action: 'update', file_path: 'nope.rb', content: 'x' }] },
      { token: 'developer' },
    );
    expect(missingFile.status).toBe(400);
    expect(missingFile.body.message.error).toEqual(expect.any(String));
    const none = await app.put(`/api/v4/snippets/${snippet.id}`, {}, { token: 'developer' });
    expect([none.status, none.body]).toEqual([
      400,
      { error: 'content, description, files, file_name, title, visibility are missing, at least one parameter must be provided' },
    ]);
    const both = await app.put(
      `/api/v4/snippets/${snippet.id}`,
      { files: [{ action: 'delete', file_path: 'hello.rb' }], content: 'x' },
      { token: 'developer' },
    );
    expect([both.status, both.body]).toEqual([400, { error: 'files, content are mutually exclusive' }]);
    const unchanged = await app.get(`/api/v4/snippets/${snippet.id}`, { token: 'developer' });
    expect(unchanged.body.files.map((f: { path: string }) => f.path)).toEqual(['hello.rb', 'lib/util.rb']);
  });

  it('renames and rewrites a single-file snippet with the deprecated parameters', async () => {
    const snippet = await create({ title: 'single', content: 'v1', file_name: 'one.txt' });
    const res = await app.put(`/api/v4/snippets/${snippet.id}`, { content: 'v2', file_name: 'two.txt', visibility: 'private' }, { token: 'developer' });
    expect(res.body).toMatchObject({ visibility: 'private', file_name: 'two.txt', files: [{ path: 'two.txt' }] });
    expect((await app.get(`/api/v4/snippets/${snippet.id}/raw`, { token: 'developer' })).text).toBe('v2');
  });

  it('finds only the caller’s own snippets: another user’s is 404, even public', async () => {
    const snippet = await create({ title: 'mine', visibility: 'public', files });
    for (const token of ['guest', 'admin']) {
      const res = await app.put(`/api/v4/snippets/${snippet.id}`, { title: 'theirs' }, { token });
      expect([res.status, res.body]).toEqual([404, { message: '404 Snippet Not Found' }]);
      const del = await app.delete(`/api/v4/snippets/${snippet.id}`, { token });
      expect([del.status, del.body]).toEqual([404, { message: '404 Snippet Not Found' }]);
    }
    expect((await app.get(`/api/v4/snippets/${snippet.id}`)).body.title).toBe('mine');
  });
});

describe('DELETE /snippets/:id', () => {
  it('removes the snippet and its repository', async () => {
    const snippet = await create({ title: 'gone', files });
    const reads = app.kernel.resolve(repositoryReadRef);
    expect(await reads.find({ kind: 'snippet', containerId: snippet.id })).not.toBeNull();
    const stale = await app.delete(`/api/v4/snippets/${snippet.id}`, {
      token: 'developer',
      headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' },
    });
    expect([stale.status, stale.body]).toEqual([412, { message: '412 Precondition Failed' }]);
    const res = await app.delete(`/api/v4/snippets/${snippet.id}`, { token: 'developer' });
    expect(res.status).toBe(204);
    expect(await reads.find({ kind: 'snippet', containerId: snippet.id })).toBeNull();
    expect((await app.get(`/api/v4/snippets/${snippet.id}`, { token: 'developer' })).status).toBe(404);
  });

  it('removes a deleted user’s snippets', async () => {
    const users = app.kernel.resolve(coreUsersRef);
    const user = await users.create({ username: 'leaving', name: 'Leaving', email: 'leaving@example.com' });
    const token = (await app.kernel.resolve(coreTokensRef).create({ userId: user.id, name: 't', scopes: ['api'] })).secret;
    const snippet = await create({ title: 'bye', visibility: 'public', files }, token);
    const res = await app.delete(`/api/v4/users/${user.id}`, { token: 'admin' });
    expect(res.status).toBe(204);
    await expect.poll(async () => (await app.get(`/api/v4/snippets/${snippet.id}`)).status).toBe(404);
    expect(await app.kernel.resolve(repositoryReadRef).find({ kind: 'snippet', containerId: snippet.id })).toBeNull();
  });
});
