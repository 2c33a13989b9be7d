import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { coreTokensRef, coreUsersRef } from '../contracts.js';

const GROUP_FIELDS = [
  'id',
  'web_url',
  'name',
  'path',
  'description',
  'visibility',
  'share_with_group_lock',
  'require_two_factor_authentication',
  'two_factor_grace_period',
  'project_creation_level',
  'auto_devops_enabled',
  'subgroup_creation_level',
  'emails_disabled',
  'emails_enabled',
  'mentions_disabled',
  'lfs_enabled',
  'archived',
  'default_branch',
  'default_branch_protection',
  'default_branch_protection_defaults',
  'avatar_url',
  'request_access_enabled',
  'full_name',
  'full_path',
  'created_at',
  'parent_id',
  'organization_id',
  'shared_runners_setting',
  'max_artifacts_size',
  'marked_for_deletion_on',
];
const NOT_FOUND = { message: '404 Group Not Found' };
const FORBIDDEN = { message: '403 Forbidden' };

describe('groups', () => {
  let app: TestApp;
  let externalToken: string;
  let serial = 0;

  beforeAll(async () => {
    app = await createTestApp();
    const external = await app.kernel.resolve(coreUsersRef).create({ username: 'outsider', name: 'Outsider', email: 'outsider@example.com', external: true });
    externalToken = (await app.kernel.resolve(coreTokensRef).create({ userId: external.id, name: 'outsider', scopes: ['api'] })).secret;
  });
  afterAll(() => app?.close());

  const unique = (prefix: string) => `${prefix}-${(serial += 1)}`;

  async function createGroup(token: string, body: Record<string, unknown>) {
    const res = await app.post('/api/v4/groups', body, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }

  describe('POST /groups', () => {
    it('creates a top-level group owned by the caller, fields in order', async () => {
      const path = unique('fresh');
      const res = await app.post('/api/v4/groups', { name: 'Fresh Group', path, description: 'A group' }, { token: 'nonMember' });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(GROUP_FIELDS);
      expect(res.body).toMatchObject({
        name: 'Fresh Group',
        path,
        full_path: path,
        full_name: 'Fresh Group',
        description: 'A group',
        visibility: 'private',
        parent_id: null,
        web_url: `http://localhost/groups/${path}`,
        project_creation_level: 'developer',
        subgroup_creation_level: 'maintainer',
        default_branch_protection: 2,
        default_branch_protection_defaults: { allowed_to_push: [{ access_level: 40 }], allow_force_push: false, allowed_to_merge: [{ access_level: 40 }] },
      });
      const member = await app.get(`/api/v4/groups/${res.body.id}/members/${app.users.nonMember.id}`, { token: 'nonMember' });
      expect(member.body.access_level).toBe(50);
    });

    it('uses the instance default visibility, lowered to the parent for subgroups', async () => {
      await app.put('/api/v4/application/settings', { default_group_visibility: 'internal' }, { token: 'admin' });
      try {
        const top = await createGroup('owner', { name: 'Default Vis', path: unique('default-vis') });
        expect(top.visibility).toBe('internal');
        const sub = await createGroup('owner', { name: 'Sub', path: 'sub', parent_id: app.group.id });
        expect(sub.visibility).toBe('private');
      } finally {
        await app.put('/api/v4/application/settings', { default_group_visibility: 'private' }, { token: 'admin' });
      }
    });

    it('creates a subgroup when the caller may create subgroups in the parent', async () => {
      const res = await app.post('/api/v4/groups', { name: 'Team', path: unique('team'), parent_id: app.group.id }, { token: 'maintainer' });
      expect(res.status).toBe(201);
      expect(res.body.parent_id).toBe(app.group.id);
      expect(res.body.full_path).toBe(`test-group/${res.body.path}`);
      expect(res.body.full_name).toBe('Test Group / Team');
    });

    it('refuses a subgroup to a developer of the parent (403) and to a stranger (404)', async () => {
      const developer = await app.post('/api/v4/groups', { name: 'Nope', path: 'nope', parent_id: app.group.id }, { token: 'developer' });
      expect(developer.status).toBe(403);
      expect(developer.body).toEqual(FORBIDDEN);
      const stranger = await app.post('/api/v4/groups', { name: 'Nope', path: 'nope', parent_id: app.group.id }, { token: 'nonMember' });
      expect(stranger.status).toBe(404);
      expect(stranger.body).toEqual(NOT_FOUND);
      const unknown = await app.post('/api/v4/groups', { name: 'Nope', path: 'nope', parent_id: 999999 }, { token: 'owner' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(NOT_FOUND);
    });

    it('answers save failures with the Failed to save group text', async () => {
      const taken = await app.post('/api/v4/groups', { name: 'Again', path: 'Test-Group' }, { token: 'owner' });
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual({ message: 'Failed to save group {:path=>["has already been taken"]}' });
      const badPath = await app.post('/api/v4/groups', { name: 'Bad', path: 'bad.git' }, { token: 'owner' });
      expect(badPath.body).toEqual({
        message: `Failed to save group {:path=>["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"]}`,
      });
      const reserved = await app.post('/api/v4/groups', { name: 'Admin', path: 'admin' }, { token: 'owner' });
      expect(reserved.body).toEqual({ message: 'Failed to save group {:path=>["admin is a reserved name"]}' });
      const tooVisible = await app.post(
        '/api/v4/groups',
        { name: 'Loud', path: unique('loud'), parent_id: app.group.id, visibility: 'public' },
        { token: 'owner' },
      );
      expect(tooVisible.status).toBe(400);
      expect(tooVisible.body).toEqual({
        message: 'Failed to save group {:visibility_level=>["public is not allowed since the parent group has a private visibility."]}',
      });
    });

    it('answers parameter errors and anonymous callers', async () => {
      const missing = await app.post('/api/v4/groups', { name: 'No Path' }, { token: 'owner' });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ error: 'path is missing' });
      const visibility = await app.post('/api/v4/groups', { name: 'V', path: 'v', visibility: 'secret' }, { token: 'owner' });
      expect(visibility.body).toEqual({ error: 'visibility does not have a valid value' });
      const anonymous = await app.post('/api/v4/groups', { name: 'Anon', path: 'anon' });
      expect(anonymous.status).toBe(401);
    });

    it('refuses a top-level group to a user who may not create groups', async () => {
      const user = await app.kernel
        .resolve(coreUsersRef)
        .create({ username: 'no-groups', name: 'No Groups', email: 'no-groups@example.com', canCreateGroup: false });
      const token = (await app.kernel.resolve(coreTokensRef).create({ userId: user.id, name: 't', scopes: ['api'] })).secret;
      const res = await app.post('/api/v4/groups', { name: 'Mine', path: 'mine-group' }, { token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    });
  });

  describe('GET /groups/:id', () => {
    it('shows a group with its projects to a member, by id or full path', async () => {
      const res = await app.get(`/api/v4/groups/${app.group.id}`, { token: 'guest' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual([...GROUP_FIELDS, 'shared_with_groups', 'projects', 'shared_projects']);
      expect(res.body.projects.map((p: { path_with_namespace: string }) => p.path_with_namespace)).toEqual(['test-group/test-project']);
      const byPath = await app.get('/api/v4/groups/TEST-GROUP', { token: 'guest' });
      expect(byPath.body.id).toBe(app.group.id);
      const withoutProjects = await app.get(`/api/v4/groups/${app.group.id}`, { token: 'guest', query: { with_projects: false } });
      expect(withoutProjects.body).not.toHaveProperty('projects');
    });

    it('hides a private group from non-members and anonymous callers with 404', async () => {
      for (const token of ['nonMember', undefined]) {
        const res = await app.get(`/api/v4/groups/${app.group.id}`, { token });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(NOT_FOUND);
      }
      expect((await app.get('/api/v4/groups/999999', { token: 'admin' })).body).toEqual(NOT_FOUND);
    });

    it('shows an internal group to any signed-in user except external ones', async () => {
      const group = await createGroup('owner', { name: 'Internal', path: unique('internal'), visibility: 'internal' });
      expect((await app.get(`/api/v4/groups/${group.id}`, { token: 'nonMember' })).status).toBe(200);
      expect((await app.get(`/api/v4/groups/${group.id}`, { token: externalToken })).status).toBe(404);
      expect((await app.get(`/api/v4/groups/${group.id}`)).status).toBe(404);
    });

    it('shows a public group to anonymous callers', async () => {
      const group = await createGroup('owner', { name: 'Public', path: unique('public'), visibility: 'public' });
      const res = await app.get(`/api/v4/groups/${group.id}`);
      expect(res.status).toBe(200);
      expect(res.body.visibility).toBe('public');
    });

    it('shows the parent group to a member of a subgroup only', async () => {
      const parent = await createGroup('owner', { name: 'Parent', path: unique('parent') });
      const child = await createGroup('owner', { name: 'Child', path: 'child', parent_id: parent.id });
      expect((await app.get(`/api/v4/groups/${parent.id}`, { token: 'nonMember' })).status).toBe(404);
      await app.post(`/api/v4/groups/${child.id}/members`, { user_id: app.users.nonMember.id, access_level: 10 }, { token: 'owner' });
      expect((await app.get(`/api/v4/groups/${parent.id}`, { token: 'nonMember' })).status).toBe(200);
    });
  });

  describe('GET /groups', () => {
    it('lists the groups a signed-in user is a member of, by name', async () => {
      const res = await app.get('/api/v4/groups', { token: 'guest' });
      expect(res.status).toBe(200);
      expect(res.body.map((g: { full_path: string }) => g.full_path)).toContain('test-group');
      expect(Object.keys(res.body[0])).toEqual(GROUP_FIELDS);
      const names = res.body.map((g: { name: string }) => g.name);
      expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)));
      const stranger = await app.get('/api/v4/groups', { token: 'nonMember' });
      expect(stranger.body.map((g: { id: number }) => g.id)).not.toContain(app.group.id);
    });

    it('lists every visible group with all_available, public ones to anonymous callers', async () => {
      const internal = await createGroup('owner', { name: 'Listed Internal', path: unique('listed-internal'), visibility: 'internal' });
      const pub = await createGroup('owner', { name: 'Listed Public', path: unique('listed-public'), visibility: 'public' });
      const signedIn = (await app.get('/api/v4/groups', { token: 'nonMember', query: { all_available: true, per_page: 100 } })).body.map(
        (g: { id: number }) => g.id,
      );
      expect(signedIn).toEqual(expect.arrayContaining([internal.id, pub.id]));
      expect(signedIn).not.toContain(app.group.id);
      const anonymous = (await app.get('/api/v4/groups', { query: { per_page: 100 } })).body.map((g: { id: number }) => g.id);
      expect(anonymous).toContain(pub.id);
      expect(anonymous).not.toContain(internal.id);
      const external = (await app.get('/api/v4/groups', { token: externalToken, query: { all_available: true, per_page: 100 } })).body.map(
        (g: { id: number }) => g.id,
      );
      expect(external).toContain(pub.id);
      expect(external).not.toContain(internal.id);
    });

    it('gives anonymous callers no group for owned or min_access_level, as they are a member of nothing', async () => {
      const filters: Record<string, string | number | boolean>[] = [{ owned: true }, { min_access_level: 10 }];
      for (const filter of filters) {
        const res = await app.get('/api/v4/groups', { query: { per_page: 100, ...filter } });
        expect(res.status).toBe(200);
        expect(res.body, JSON.stringify(filter)).toEqual([]);
      }
    });

    it('lets admins see every group', async () => {
      const res = await app.get('/api/v4/groups', { token: 'admin', query: { per_page: 100 } });
      expect(res.body.map((g: { id: number }) => g.id)).toContain(app.group.id);
    });

    it('filters by search, owned, min_access_level, visibility and top_level_only', async () => {
      const ids = async (token: string, query: Record<string, string | number | boolean>) =>
        (await app.get('/api/v4/groups', { token, query: { per_page: 100, ...query } })).body.map((g: { id: number }) => g.id);
      expect(await ids('guest', { search: 'TEST gro' })).toEqual([app.group.id]);
      expect(await ids('maintainer', { owned: true })).not.toContain(app.group.id);
      expect(await ids('owner', { owned: true })).toContain(app.group.id);
      expect(await ids('developer', { min_access_level: 30 })).toContain(app.group.id);
      expect(await ids('developer', { min_access_level: 40 })).not.toContain(app.group.id);
      expect(await ids('owner', { visibility: 'public', all_available: true })).not.toContain(app.group.id);
      const sub = await createGroup('owner', { name: 'Nested', path: unique('nested'), parent_id: app.group.id });
      expect(await ids('owner', {})).toContain(sub.id);
      expect(await ids('owner', { top_level_only: true })).not.toContain(sub.id);
      expect(await ids('owner', { skip_groups: [sub.id] } as never)).not.toContain(sub.id);
    });

    it('rejects an unknown min_access_level', async () => {
      const res = await app.get('/api/v4/groups', { token: 'guest', query: { min_access_level: 35 } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'min_access_level does not have a valid value' });
    });

    it('writes pagination headers with sorted params in the Link URLs', async () => {
      for (let i = 0; i < 3; i++) await createGroup('reporter', { name: `Paged ${i}`, path: unique('paged') });
      const res = await app.get('/api/v4/groups', { token: 'reporter', query: { search: 'paged', per_page: 2 } });
      expect(res.body.map((g: { name: string }) => g.name)).toEqual(['Paged 0', 'Paged 1']);
      expect(res.headers.get('x-total')).toBe('3');
      expect(res.headers.get('x-total-pages')).toBe('2');
      expect(res.headers.get('x-next-page')).toBe('2');
      expect(res.headers.get('x-prev-page')).toBe('');
      const base = 'http://localhost/api/v4/groups?order_by=name&owned=false';
      expect(res.headers.get('link')).toBe(
        `<${base}&page=2&per_page=2&search=paged&sort=asc>; rel="next", ` +
          `<${base}&page=1&per_page=2&search=paged&sort=asc>; rel="first", ` +
          `<${base}&page=2&per_page=2&search=paged&sort=asc>; rel="last"`,
      );
      const last = await app.get('/api/v4/groups', { token: 'reporter', query: { search: 'paged', per_page: 2, page: 2 } });
      expect(last.body.map((g: { name: string }) => g.name)).toEqual(['Paged 2']);
      expect(last.headers.get('x-next-page')).toBe('');
      expect(last.headers.get('x-prev-page')).toBe('1');
    });
  });

  describe('subgroups and descendant groups', () => {
    it('lists direct subgroups and all descendants', async () => {
      const root = await createGroup('owner', { name: 'Root', path: unique('root') });
      const a = await createGroup('owner', { name: 'A', path: 'a', parent_id: root.id });
      const b = await createGroup('owner', { name: 'B', path: 'b', parent_id: root.id });
      const deep = await createGroup('owner', { name: 'Deep', path: 'deep', parent_id: a.id });
      expect(deep.full_path).toBe(`${root.path}/a/deep`);

      const subgroups = await app.get(`/api/v4/groups/${root.id}/subgroups`, { token: 'owner' });
      expect(subgroups.status).toBe(200);
      expect(subgroups.body.map((g: { id: number }) => g.id)).toEqual([a.id, b.id]);
      const descendants = await app.get(`/api/v4/groups/${encodeURIComponent(root.full_path)}/descendant_groups`, { token: 'owner' });
      expect(descendants.body.map((g: { id: number }) => g.id)).toEqual([a.id, b.id, deep.id]);
      const hidden = await app.get(`/api/v4/groups/${root.id}/subgroups`, { token: 'nonMember' });
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(NOT_FOUND);
    });
  });

  describe('PUT /groups/:id', () => {
    it('lets the owner rename a group, moving the paths below it', async () => {
      const group = await createGroup('owner', { name: 'Before', path: unique('before') });
      const sub = await createGroup('owner', { name: 'Kid', path: 'kid', parent_id: group.id });
      const project = await app.post('/api/v4/projects', { name: 'Inner', namespace_id: sub.id }, { token: 'owner' });
      const newPath = unique('after');
      const res = await app.put(
        `/api/v4/groups/${group.id}`,
        { name: 'After', path: newPath, description: 'moved', request_access_enabled: false },
        { token: 'owner' },
      );
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(GROUP_FIELDS);
      expect(res.body).toMatchObject({ name: 'After', path: newPath, full_path: newPath, description: 'moved', request_access_enabled: false });
      expect((await app.get(`/api/v4/groups/${sub.id}`, { token: 'owner' })).body).toMatchObject({ full_path: `${newPath}/kid`, full_name: 'After / Kid' });
      expect((await app.get(`/api/v4/projects/${project.body.id}`, { token: 'owner' })).body.path_with_namespace).toBe(`${newPath}/kid/inner`);
    });

    it('answers validation failures with the field messages', async () => {
      const group = await createGroup('owner', { name: 'Clash', path: unique('clash') });
      const res = await app.put(`/api/v4/groups/${group.id}`, { path: 'test-group' }, { token: 'owner' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { path: ['has already been taken'] } });
    });

    it('refuses to make a group less visible than its projects or subgroups', async () => {
      const group = await createGroup('owner', { name: 'Open', path: unique('open'), visibility: 'public' });
      await createGroup('owner', { name: 'Open Kid', path: 'kid', parent_id: group.id, visibility: 'internal' });
      await app.post('/api/v4/projects', { name: 'Open Project', namespace_id: group.id, visibility: 'public' }, { token: 'owner' });
      const res = await app.put(`/api/v4/groups/${group.id}`, { visibility: 'private' }, { token: 'owner' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: {
          visibility_level: [
            'private is not allowed since this group contains projects with higher visibility.',
            'private is not allowed since there are sub-groups with higher visibility.',
          ],
        },
      });
      expect((await app.put(`/api/v4/groups/${group.id}`, { visibility: 'public' }, { token: 'owner' })).status).toBe(200);
    });

    it('is for owners: 403 for a maintainer, 404 for a stranger', async () => {
      const maintainer = await app.put(`/api/v4/groups/${app.group.id}`, { description: 'x' }, { token: 'maintainer' });
      expect(maintainer.status).toBe(403);
      expect(maintainer.body).toEqual(FORBIDDEN);
      const stranger = await app.put(`/api/v4/groups/${app.group.id}`, { description: 'x' }, { token: 'nonMember' });
      expect(stranger.status).toBe(404);
      expect(stranger.body).toEqual(NOT_FOUND);
    });
  });

  describe('DELETE /groups/:id', () => {
    it('deletes a group with its subgroups and projects: 202 Accepted', async () => {
      const group = await createGroup('owner', { name: 'Doomed', path: unique('doomed') });
      const sub = await createGroup('owner', { name: 'Doomed Kid', path: 'kid', parent_id: group.id });
      const project = (await app.post('/api/v4/projects', { name: 'Doomed Project', namespace_id: sub.id }, { token: 'owner' })).body;
      const events: unknown[] = [];
      app.kernel.events.on('group.deleted', (payload) => void events.push(['group', payload]));
      app.kernel.events.on('project.deleted', (payload) => void events.push(['project', payload]));

      const res = await app.delete(`/api/v4/groups/${group.id}`, { token: 'owner' });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ message: '202 Accepted' });
      expect(events).toEqual([
        ['project', { projectId: project.id }],
        ['group', { groupId: sub.id }],
        ['group', { groupId: group.id }],
      ]);
      expect((await app.get(`/api/v4/groups/${group.id}`, { token: 'admin' })).status).toBe(404);
      expect((await app.get(`/api/v4/projects/${project.id}`, { token: 'admin' })).status).toBe(404);
    });

    it('is for owners: 403 for a maintainer, 404 for a stranger, 401 anonymous', async () => {
      expect((await app.delete(`/api/v4/groups/${app.group.id}`, { token: 'maintainer' })).body).toEqual(FORBIDDEN);
      expect((await app.delete(`/api/v4/groups/${app.group.id}`, { token: 'nonMember' })).body).toEqual(NOT_FOUND);
      expect((await app.delete(`/api/v4/groups/${app.group.id}`)).status).toBe(401);
    });
  });

  describe('GET /groups/:id/projects', () => {
    it('lists the group projects; subgroup projects only with include_subgroups', async () => {
      const group = await createGroup('owner', { name: 'With Projects', path: unique('with-projects') });
      const sub = await createGroup('owner', { name: 'Sub', path: 'sub', parent_id: group.id });
      const top = (await app.post('/api/v4/projects', { name: 'Top', namespace_id: group.id }, { token: 'owner' })).body;
      const nested = (await app.post('/api/v4/projects', { name: 'Nested', namespace_id: sub.id }, { token: 'owner' })).body;

      const direct = await app.get(`/api/v4/groups/${group.id}/projects`, { token: 'owner' });
      expect(direct.status).toBe(200);
      expect(direct.body.map((p: { id: number }) => p.id)).toEqual([top.id]);
      const all = await app.get(`/api/v4/groups/${group.id}/projects`, { token: 'owner', query: { include_subgroups: true } });
      expect(all.body.map((p: { id: number }) => p.id)).toEqual([nested.id, top.id]);
      expect(all.headers.get('link')).toContain('include_subgroups=true');
    });

    it('lets a member of the parent group see subgroup projects', async () => {
      const sub = await createGroup('owner', { name: 'Inherited', path: unique('inherited'), parent_id: app.group.id });
      const project = (await app.post('/api/v4/projects', { name: 'Deep Project', namespace_id: sub.id }, { token: 'owner' })).body;
      const res = await app.get(`/api/v4/groups/${sub.id}/projects`, { token: 'guest' });
      expect(res.body.map((p: { id: number }) => p.id)).toEqual([project.id]);
      const single = await app.get(`/api/v4/projects/${project.id}`, { token: 'guest' });
      expect(single.status).toBe(200);
      expect(single.body.permissions).toEqual({ project_access: null, group_access: { access_level: 10, notification_level: 3 } });
    });

    it('answers 404 for a hidden group', async () => {
      const res = await app.get(`/api/v4/groups/${app.group.id}/projects`, { token: 'nonMember' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    });
  });
});
