import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';

const NAMESPACE_BASIC = ['id', 'name', 'path', 'kind', 'full_path', 'parent_id', 'avatar_url', 'web_url'];
const NOT_FOUND = { message: '404 Namespace Not Found' };

type Listed = { id: number; kind: string; full_path: string };

describe('namespaces', () => {
  let app: TestApp;
  let sub: { id: number; full_path: string };

  beforeAll(async () => {
    app = await createTestApp();
    sub = (await app.post('/api/v4/groups', { name: 'Sub', path: 'sub', parent_id: app.group.id }, { token: 'owner' })).body;
  });
  afterAll(() => app?.close());

  describe('GET /namespaces', () => {
    it('lists the caller own namespace and the groups they belong to, by id', async () => {
      const res = await app.get('/api/v4/namespaces', { token: 'developer' });
      expect(res.status).toBe(200);
      expect(res.body.map((ns: Listed) => ns.full_path)).toEqual(['developer', 'test-group', 'test-group/sub']);
      expect(Object.keys(res.body[0])).toEqual(NAMESPACE_BASIC);
      expect(res.body[0]).toEqual({
        id: app.users.developer.namespaceId,
        name: 'Developer User',
        path: 'developer',
        kind: 'user',
        full_path: 'developer',
        parent_id: null,
        avatar_url: null,
        web_url: 'http://localhost/developer',
      });
      expect(res.body[2]).toMatchObject({ kind: 'group', parent_id: app.group.id, web_url: 'http://localhost/groups/test-group/sub' });
      expect(res.headers.get('x-total')).toBe('3');
    });

    it('shows members_count_with_descendants to group owners only', async () => {
      const owner = await app.get('/api/v4/namespaces', { token: 'owner' });
      const group = owner.body.find((ns: Listed) => ns.id === app.group.id);
      expect(Object.keys(group)).toEqual([...NAMESPACE_BASIC, 'members_count_with_descendants']);
      expect(group.members_count_with_descendants).toBe(5);
      const developer = await app.get('/api/v4/namespaces', { token: 'developer' });
      expect(developer.body.find((ns: Listed) => ns.id === app.group.id)).not.toHaveProperty('members_count_with_descendants');
    });

    it('searches by path and lists owned namespaces only on request', async () => {
      const search = await app.get('/api/v4/namespaces', { token: 'developer', query: { search: 'SUB' } });
      expect(search.body.map((ns: Listed) => ns.full_path)).toEqual(['test-group/sub']);
      const owned = await app.get('/api/v4/namespaces', { token: 'developer', query: { owned_only: true } });
      expect(owned.body.map((ns: Listed) => ns.full_path)).toEqual(['developer']);
      const ownerOwned = await app.get('/api/v4/namespaces', { token: 'owner', query: { owned_only: true } });
      expect(ownerOwned.body.map((ns: Listed) => ns.full_path)).toEqual(['owner', 'test-group', 'test-group/sub']);
    });

    it('shows strangers only their own namespace, admins every namespace', async () => {
      const stranger = await app.get('/api/v4/namespaces', { token: 'nonMember' });
      expect(stranger.body.map((ns: Listed) => ns.full_path)).toEqual(['non-member']);
      const admin = await app.get('/api/v4/namespaces', { token: 'admin', query: { per_page: 100 } });
      expect(admin.body).toHaveLength(9);
    });

    it('requires authentication', async () => {
      const res = await app.get('/api/v4/namespaces');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: '401 Unauthorized' });
    });
  });

  describe('GET /namespaces/:id', () => {
    it('shows a visible namespace by id or full path', async () => {
      const byId = await app.get(`/api/v4/namespaces/${app.group.id}`, { token: 'guest' });
      expect(byId.status).toBe(200);
      expect(byId.body).toMatchObject({ id: app.group.id, kind: 'group', full_path: 'test-group' });
      const byPath = await app.get('/api/v4/namespaces/test-group%2FSUB', { token: 'guest' });
      expect(byPath.body.id).toBe(sub.id);
      const own = await app.get('/api/v4/namespaces/guest', { token: 'guest' });
      expect(own.body).toMatchObject({ kind: 'user', full_path: 'guest' });
    });

    it('answers 404 for namespaces the caller may not see', async () => {
      for (const id of [String(app.group.id), 'owner', '999999']) {
        const res = await app.get(`/api/v4/namespaces/${id}`, { token: 'nonMember' });
        expect(res.status, id).toBe(404);
        expect(res.body, id).toEqual(NOT_FOUND);
      }
    });
  });

  describe('GET /namespaces/:id/exists', () => {
    it('tells whether a top-level path is taken and suggests another', async () => {
      const taken = await app.get('/api/v4/namespaces/test-group/exists', { token: 'guest' });
      expect(taken.status).toBe(200);
      expect(taken.body).toEqual({ exists: true, suggests: ['test-group1'] });
      const free = await app.get('/api/v4/namespaces/brand-new/exists', { token: 'guest' });
      expect(free.body).toEqual({ exists: false, suggests: [] });
      const user = await app.get('/api/v4/namespaces/Owner/exists', { token: 'guest' });
      expect(user.body.exists).toBe(true);
    });

    it('checks a path under a parent', async () => {
      const under = await app.get('/api/v4/namespaces/sub/exists', { token: 'guest', query: { parent_id: app.group.id } });
      expect(under.body).toEqual({ exists: true, suggests: ['sub1'] });
      const top = await app.get('/api/v4/namespaces/sub/exists', { token: 'guest' });
      expect(top.body.exists).toBe(false);
    });
  });
});
