import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { notesPlugin } from '@forgekit/plugin-notes';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { repositoryReadRef } from '@forgekit/plugin-repositories/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snippetsPlugin } from '../plugin.js';

let app: TestApp;
/** Snippet ids by name: personal ones by author and visibility, project ones by project and visibility. */
const ids: Record<string, number> = {};
const files = [{ file_path: 'a.txt', content: 'a\n' }];

const all = async (token: string | undefined, query: Record<string, string> = {}) => {
  const res = await app.get('/api/v4/snippets/all', { token, query });
  return {
    status: res.status,
    names: Array.isArray(res.body) ? res.body.map((s: { id: number }) => nameOf(s.id)) : res.body,
    total: res.headers.get('x-total'),
  };
};
const nameOf = (id: number) => Object.entries(ids).find(([, value]) => value === id)?.[0] ?? String(id);
/** Names in the list's order: newest (highest id) first. */
const newestFirst = (...names: string[]) => names.sort((a, b) => ids[b]! - ids[a]!);

beforeAll(async () => {
  app = await createTestApp({ plugins: [repositoriesPlugin, notesPlugin, snippetsPlugin] });
  const snippet = async (name: string, path: string, visibility: string, token: string) => {
    const res = await app.post(path, { title: name, visibility, files }, { token });
    expect(res.status).toBe(201);
    ids[name] = res.body.id;
  };
  const project = async (path: string, settings: Record<string, unknown> = {}) => {
    const res = await app.post('/api/v4/projects', { name: path, path, visibility: 'public', ...settings }, { token: 'owner' });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };
  for (const visibility of ['private', 'internal', 'public']) await snippet(`dev-${visibility}`, '/api/v4/snippets', visibility, 'developer');
  await snippet('stranger-private', '/api/v4/snippets', 'private', 'nonMember');
  // The seeded project is private; everybody but the non-member belongs to it.
  for (const visibility of ['private', 'public'])
    await snippet(`members-${visibility}`, `/api/v4/projects/${app.project.id}/snippets`, visibility, 'developer');
  // Public projects of the owner's own namespace, where every other user is a stranger.
  const open = await project('open');
  for (const visibility of ['private', 'internal', 'public']) await snippet(`open-${visibility}`, `/api/v4/projects/${open}/snippets`, visibility, 'owner');
  const membersOnly = await project('members-only');
  await snippet('members-only-public', `/api/v4/projects/${membersOnly}/snippets`, 'public', 'owner');
  expect((await app.put(`/api/v4/projects/${membersOnly}`, { snippets_access_level: 'private' }, { token: 'owner' })).status).toBe(200);
  const closed = await project('closed');
  await snippet('closed-public', `/api/v4/projects/${closed}/snippets`, 'public', 'owner');
  expect((await app.put(`/api/v4/projects/${closed}`, { snippets_access_level: 'disabled' }, { token: 'owner' })).status).toBe(200);
});
afterAll(() => app.close());

describe('GET /snippets/all', () => {
  it('shows administrators every snippet, personal and project, newest first', async () => {
    const names = Object.keys(ids);
    expect(await all('admin')).toEqual({ status: 200, names: newestFirst(...names), total: String(names.length) });
  });

  it('shows others what they may read: their own, visible personal ones, and snippets of projects they see', async () => {
    // A stranger to every project: no private project's snippets, no private snippet of a public
    // project, nothing from a project whose snippets are for members or switched off.
    expect(await all('nonMember')).toEqual({
      status: 200,
      names: newestFirst('dev-internal', 'dev-public', 'stranger-private', 'open-internal', 'open-public'),
      total: '5',
    });
    // A Guest of the private project sees all of its snippets, private ones too.
    expect((await all('guest')).names).toEqual(newestFirst('dev-internal', 'dev-public', 'members-private', 'members-public', 'open-internal', 'open-public'));
    // The owner is a member of every project: the members-only one shows, the disabled one never.
    expect((await all('owner')).names).toEqual(
      newestFirst('dev-internal', 'dev-public', 'members-private', 'members-public', 'open-private', 'open-internal', 'open-public', 'members-only-public'),
    );
    expect((await all('developer')).names).toContain('dev-private');
  });

  it('needs a signed-in caller', async () => {
    expect(await all(undefined)).toEqual({ status: 401, names: { message: '401 Unauthorized' }, total: null });
  });

  it('filters by creation time and pages with GitLab headers', async () => {
    const created = (await app.get(`/api/v4/snippets/${ids['open-public']}`, { token: 'owner' })).body.created_at as string;
    expect((await all('admin', { created_before: '2000-01-01T00:00:00Z' })).names).toEqual([]);
    expect((await all('admin', { created_after: '2000-01-01T00:00:00Z' })).names).toHaveLength(Object.keys(ids).length);
    const after = await all('admin', { created_after: created });
    expect(after.names).not.toContain('open-public');
    expect(after.names).not.toContain('dev-private');
    const page = await app.get('/api/v4/snippets/all', { token: 'admin', query: { per_page: '2', page: '2' } });
    expect(page.body.map((s: { id: number }) => nameOf(s.id))).toEqual(newestFirst(...Object.keys(ids)).slice(2, 4));
    expect(page.headers.get('x-page')).toBe('2');
    expect(page.body[0]).not.toHaveProperty('files');
  });

  it('filters by repository storage for administrators only', async () => {
    const reads = app.kernel.resolve(repositoryReadRef);
    const storage = (await reads.find({ kind: 'snippet', containerId: ids['dev-public']! }))!.storage;
    expect((await all('admin', { repository_storage: storage })).names).toHaveLength(Object.keys(ids).length);
    expect((await all('admin', { repository_storage: 'elsewhere' })).names).toEqual([]);
    expect((await all('nonMember', { repository_storage: 'elsewhere' })).names).toHaveLength(5);
  });
});

describe('GET /snippets/public', () => {
  it('filters by creation time', async () => {
    const res = await app.get('/api/v4/snippets/public', { token: 'guest' });
    expect(res.body.map((s: { id: number }) => nameOf(s.id))).toEqual(['dev-public']);
    expect((await app.get('/api/v4/snippets/public', { token: 'guest', query: { created_before: '2000-01-01T00:00:00Z' } })).body).toEqual([]);
    expect((await app.get('/api/v4/snippets/public', { token: 'guest', query: { created_after: '2000-01-01T00:00:00Z' } })).body).toHaveLength(1);
  });
});
