import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '@forgekit/plugin-core/testing';
import { coreTokensRef, coreUsersRef } from '../contracts.js';

const PROJECT_BASIC = [
  'id',
  'description',
  'name',
  'name_with_namespace',
  'path',
  'path_with_namespace',
  'created_at',
  'default_branch',
  'tag_list',
  'topics',
  'ssh_url_to_repo',
  'http_url_to_repo',
  'web_url',
  'readme_url',
  'forks_count',
  'avatar_url',
  'star_count',
  'last_activity_at',
  'namespace',
];

type Listed = { id: number; path_with_namespace: string; permissions?: unknown };

describe('project lists', () => {
  let app: TestApp;
  let externalToken: string;
  const made: Record<string, Listed> = {};

  beforeAll(async () => {
    app = await createTestApp();
    const external = await app.kernel.resolve(coreUsersRef).create({ username: 'outsider', name: 'Outsider', email: 'outsider@example.com', external: true });
    externalToken = (await app.kernel.resolve(coreTokensRef).create({ userId: external.id, name: 't', scopes: ['api'] })).secret;

    const sub = (await app.post('/api/v4/groups', { name: 'Sub', path: 'sub', parent_id: app.group.id }, { token: 'owner' })).body;
    const create = async (key: string, token: string, body: Record<string, unknown>) => {
      const res = await app.post('/api/v4/projects', body, { token });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      made[key] = res.body;
    };
    await create('public', 'owner', { name: 'Alpha Public', visibility: 'public', topics: ['web', 'api'] });
    await create('internal', 'owner', { name: 'Beta Internal', visibility: 'internal', description: 'needle in description' });
    await create('private', 'owner', { name: 'Gamma Private' });
    await create('nested', 'owner', { name: 'Delta Nested', namespace_id: sub.id });
    await create('archived', 'owner', { name: 'Epsilon Archived', namespace_id: app.group.id });
    await app.post(`/api/v4/projects/${made.archived!.id}/archive`, undefined, { token: 'owner' });
    await create('stored', 'admin', { name: 'Zeta Stored', repository_storage: 'fast', visibility: 'internal' });
  });
  afterAll(() => app?.close());

  const list = (token: string | undefined, query: Record<string, string | number | boolean> = {}) =>
    app.get('/api/v4/projects', { token, query: { per_page: 100, ...query } });
  const idsOf = async (token: string | undefined, query: Record<string, string | number | boolean> = {}) =>
    (await list(token, query)).body.map((project: Listed) => project.id);

  it('shows anonymous callers public projects only, in the simple view', async () => {
    const res = await list(undefined);
    expect(res.status).toBe(200);
    expect(res.body.map((p: Listed) => p.id)).toEqual([made.public!.id]);
    expect(Object.keys(res.body[0])).toEqual(PROJECT_BASIC);
  });

  it('gives anonymous callers no project for a membership filter, as they are a member of nothing', async () => {
    const filters: Record<string, string | number | boolean>[] = [{ membership: true }, { owned: true }, { min_access_level: 10 }];
    for (const filter of filters) {
      const res = await list(undefined, filter);
      expect(res.status).toBe(200);
      expect(res.body, JSON.stringify(filter)).toEqual([]);
      expect(res.headers.get('x-total')).toBe('0');
    }
  });

  it('shows signed-in users public, internal and member projects with permissions, newest first', async () => {
    const res = await list('developer');
    const ids = res.body.map((p: Listed) => p.id);
    expect(ids).toEqual([made.stored!.id, made.archived!.id, made.nested!.id, made.internal!.id, made.public!.id, app.project.id]);
    const nested = res.body.find((p: Listed) => p.id === made.nested!.id);
    expect(nested.permissions).toEqual({ project_access: null, group_access: { access_level: 30, notification_level: 3 } });
    const pub = res.body.find((p: Listed) => p.id === made.public!.id);
    expect(pub.permissions).toEqual({ project_access: null, group_access: null });
    expect(Object.keys(res.body[0]).slice(0, PROJECT_BASIC.length)).toEqual(PROJECT_BASIC);
  });

  it('hides internal projects from external users and private ones from strangers', async () => {
    expect(await idsOf(externalToken)).toEqual([made.public!.id]);
    const stranger = await idsOf('nonMember');
    expect(stranger).toEqual([made.stored!.id, made.internal!.id, made.public!.id]);
  });

  it('shows admins every project', async () => {
    const ids = await idsOf('admin');
    expect(ids).toEqual(expect.arrayContaining([made.private!.id, made.nested!.id, app.project.id]));
    expect(ids).toHaveLength(7);
  });

  it('lists membership and owned projects', async () => {
    expect(await idsOf('developer', { membership: true })).toEqual([made.archived!.id, made.nested!.id, app.project.id]);
    expect(await idsOf('owner', { owned: true })).toEqual([
      made.archived!.id,
      made.nested!.id,
      made.private!.id,
      made.internal!.id,
      made.public!.id,
      app.project.id,
    ]);
    expect(await idsOf('maintainer', { owned: true })).toEqual([]);
  });

  it('filters by min_access_level', async () => {
    expect(await idsOf('developer', { min_access_level: 30 })).toEqual([made.archived!.id, made.nested!.id, app.project.id]);
    expect(await idsOf('developer', { min_access_level: 40 })).toEqual([]);
    const bad = await list('developer', { min_access_level: 25 });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'min_access_level does not have a valid value' });
  });

  it('searches name, path and description', async () => {
    expect(await idsOf('owner', { search: 'ALPHA' })).toEqual([made.public!.id]);
    expect(await idsOf('owner', { search: 'needle' })).toEqual([made.internal!.id]);
  });

  it('filters by visibility, archived and topic', async () => {
    expect(await idsOf('owner', { visibility: 'internal' })).toEqual([made.stored!.id, made.internal!.id]);
    expect(await idsOf('owner', { archived: true })).toEqual([made.archived!.id]);
    expect(await idsOf('owner', { archived: false })).not.toContain(made.archived!.id);
    expect(await idsOf('owner', { topic: 'api,web' })).toEqual([made.public!.id]);
    expect(await idsOf('owner', { topic: 'api,missing' })).toEqual([]);
  });

  it('filters by repository_storage for admins only', async () => {
    expect(await idsOf('admin', { repository_storage: 'fast' })).toEqual([made.stored!.id]);
    expect(await idsOf('owner', { repository_storage: 'fast' })).toHaveLength((await idsOf('owner')).length);
  });

  it('filters by id_after and id_before', async () => {
    expect(await idsOf('owner', { id_after: made.nested!.id, id_before: made.stored!.id })).toEqual([made.archived!.id]);
  });

  it('orders by name or id on request', async () => {
    const byName = (await list('owner', { order_by: 'name', sort: 'asc' })).body.map((p: { name: string }) => p.name);
    expect(byName).toEqual([...byName].sort((a: string, b: string) => a.localeCompare(b)));
    const byId = await idsOf('owner', { order_by: 'id', sort: 'asc' });
    expect(byId).toEqual([...byId].sort((a: number, b: number) => a - b));
    const bad = await list('owner', { order_by: 'color' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'order_by does not have a valid value' });
  });

  it('returns the simple view on request', async () => {
    const res = await list('owner', { simple: true });
    expect(Object.keys(res.body[0])).toEqual(PROJECT_BASIC);
  });

  it('writes exact pagination headers and Link URLs with every param, sorted', async () => {
    const first = await app.get('/api/v4/projects', { token: 'owner', query: { per_page: 4, membership: true } });
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(4);
    expect(first.headers.get('x-total')).toBe('6');
    expect(first.headers.get('x-total-pages')).toBe('2');
    expect(first.headers.get('x-per-page')).toBe('4');
    expect(first.headers.get('x-page')).toBe('1');
    expect(first.headers.get('x-next-page')).toBe('2');
    expect(first.headers.get('x-prev-page')).toBe('');
    const url = (pageNumber: number) =>
      `http://localhost/api/v4/projects?membership=true&order_by=created_at&owned=false&page=${pageNumber}&per_page=4&simple=false&sort=desc`;
    expect(first.headers.get('link')).toBe(`<${url(2)}>; rel="next", <${url(1)}>; rel="first", <${url(2)}>; rel="last"`);

    const second = await app.get('/api/v4/projects', { token: 'owner', query: { per_page: 4, membership: true, page: 2 } });
    expect(second.body).toHaveLength(2);
    expect(second.headers.get('x-next-page')).toBe('');
    expect(second.headers.get('x-prev-page')).toBe('1');
    expect(second.headers.get('link')).toBe(`<${url(1)}>; rel="prev", <${url(1)}>; rel="first", <${url(2)}>; rel="last"`);
    const all = [...first.body, ...second.body].map((p: Listed) => p.id);
    expect(new Set(all).size).toBe(6);

    const beyond = await app.get('/api/v4/projects', { token: 'owner', query: { per_page: 4, membership: true, page: 5 } });
    expect(beyond.status).toBe(200);
    expect(beyond.body).toEqual([]);
    expect(beyond.headers.get('x-total')).toBe('6');
    expect(beyond.headers.get('x-next-page')).toBe('');
  });

  it('clamps per_page to 100 and refuses per_page=0', async () => {
    const clamped = await app.get('/api/v4/projects', { token: 'owner', query: { per_page: 500 } });
    expect(clamped.headers.get('x-per-page')).toBe('100');
    const zero = await app.get('/api/v4/projects', { token: 'owner', query: { per_page: 0 } });
    expect(zero.status).toBe(400);
    expect(zero.body).toEqual({ error: 'per_page has a value not allowed' });
  });

  it('pages by id with keyset pagination, following rel="next" to the end', async () => {
    const seen: number[] = [];
    let path: string | null = '/api/v4/projects?pagination=keyset&order_by=id&sort=asc&per_page=4&membership=true';
    while (path) {
      const res: TestResponse = await app.get(path, { token: 'owner' });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-per-page')).toBe('4');
      expect(res.headers.get('x-total')).toBeNull();
      seen.push(...res.body.map((p: Listed) => p.id));
      const next: string | undefined = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
      path = next ? next.replace('http://localhost', '') : null;
      if (next) expect(next).toContain(`id_after=${seen[seen.length - 1]}`);
    }
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(new Set(seen).size).toBe(seen.length);
    const offset = await app.get('/api/v4/projects', { token: 'owner', query: { membership: true, per_page: 100 } });
    expect(seen.length).toBe(offset.body.length);
  });

  it('refuses keyset pagination for other orders', async () => {
    const res = await app.get('/api/v4/projects', { token: 'owner', query: { pagination: 'keyset', order_by: 'name' } });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ error: 'Keyset pagination is not yet available for this type of request' });
  });

  it('answers unfiltered lists of administrators and anonymous callers as filtered ones do, and sees a new project at once', async () => {
    // A membership list of an anonymous caller first: the plain list after it is not narrowed by it.
    expect((await list(undefined, { membership: true })).status).toBe(200);
    expect(await idsOf(undefined)).toEqual([made.public!.id]);
    const orders: Record<string, string>[] = [{}, { order_by: 'name', sort: 'asc' }, { order_by: 'id', sort: 'asc', pagination: 'keyset' }];
    for (const order of orders) {
      // `id_after=0` keeps every project but takes the list off the plain path.
      const plain = await list('admin', { ...order, per_page: 3 });
      const filtered = await list('admin', { ...order, per_page: 3, id_after: 0 });
      expect(plain.body.map((p: Listed) => p.id)).toEqual(filtered.body.map((p: Listed) => p.id));
      expect(plain.headers.get('x-total')).toBe(filtered.headers.get('x-total'));
    }
    const second = await list('admin', { per_page: 3, page: 2 });
    expect(second.body.map((p: Listed) => p.id)).toEqual((await idsOf('admin', { id_after: 0 })).slice(3, 6));
    const before = await list('admin', { per_page: 3 });
    const added = (await app.post('/api/v4/projects', { name: 'Eta Added' }, { token: 'admin' })).body as Listed;
    const after = await list('admin', { per_page: 3 });
    expect(after.body[0].id).toBe(added.id);
    expect(Number(after.headers.get('x-total'))).toBe(Number(before.headers.get('x-total')) + 1);
    await app.delete(`/api/v4/projects/${added.id}`, { token: 'admin' });
  });
  it('answers unfiltered and membership lists of signed-in users as filtered ones do, for each user in turn', async () => {
    // The page statement is built once per shape: each user after the first must still get their own projects.
    const filters: Record<string, string | number | boolean>[] = [
      {},
      { membership: true },
      { owned: true },
      { min_access_level: 30 },
      { order_by: 'name', sort: 'asc' },
    ];
    for (const filter of filters) {
      for (const token of ['developer', 'owner', 'nonMember', externalToken, 'maintainer', 'developer']) {
        const plain = await list(token, { ...filter, per_page: 4 });
        const filtered = await list(token, { ...filter, per_page: 4, id_after: 0 });
        expect(plain.status).toBe(200);
        expect(
          plain.body.map((p: Listed) => p.id),
          `${token} ${JSON.stringify(filter)}`,
        ).toEqual(filtered.body.map((p: Listed) => p.id));
        expect(plain.headers.get('x-total')).toBe(filtered.headers.get('x-total'));
      }
    }
    expect(await idsOf('nonMember')).toEqual([made.stored!.id, made.internal!.id, made.public!.id]);
    expect(await idsOf('owner', { owned: true })).toContain(made.private!.id);
    expect(await idsOf('nonMember', { owned: true })).toEqual([]);
  });
});
