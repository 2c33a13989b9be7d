import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '@forgekit/plugin-core/testing';
import { coreGroupsRef, coreProjectsRef, coreUsersRef, type Namespace } from '../contracts.js';
import { NamespaceEntity } from '../entities/namespace.js';

const USER_BASIC = ['id', 'username', 'public_email', 'name', 'state', 'locked', 'avatar_url', 'web_url'];
const USER_DETAIL = [
  ...USER_BASIC,
  'created_at',
  'bio',
  'location',
  'skype',
  'linkedin',
  'twitter',
  'discord',
  'website_url',
  'organization',
  'job_title',
  'pronouns',
  'bot',
  'work_information',
  'followers',
  'following',
  'is_followed',
  'local_time',
];
const USER_PUBLIC = [
  ...USER_DETAIL,
  'last_sign_in_at',
  'confirmed_at',
  'last_activity_on',
  'email',
  'theme_id',
  'color_scheme_id',
  'projects_limit',
  'current_sign_in_at',
  'identities',
  'can_create_group',
  'can_create_project',
  'two_factor_enabled',
  'external',
  'private_profile',
  'commit_email',
];
const USER_WITH_ADMIN = [...USER_PUBLIC, 'is_admin', 'note', 'namespace_id', 'created_by', 'current_sign_in_ip', 'last_sign_in_ip'];

describe('users', () => {
  let app: TestApp;
  let serial = 0;

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app?.close());

  const fresh = (extra: Record<string, unknown> = {}) => {
    serial += 1;
    return { username: `user-${serial}`, name: `User ${serial}`, email: `user-${serial}@example.com`, password: 'secret-password', ...extra };
  };
  const createUser = async (extra: Record<string, unknown> = {}) => {
    const res = await app.post('/api/v4/users', fresh(extra), { token: 'admin' });
    expect(res.status).toBe(201);
    return res.body;
  };

  describe('GET /user', () => {
    it('shows the caller as UserPublic, fields in order', async () => {
      const res = await app.get('/api/v4/user', { token: 'developer' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(USER_PUBLIC);
      expect(res.body).toMatchObject({
        id: app.users.developer.id,
        username: 'developer',
        name: 'Developer User',
        state: 'active',
        locked: false,
        avatar_url: null,
        web_url: 'http://localhost/developer',
        email: 'developer@example.com',
        is_followed: false,
        can_create_group: true,
        can_create_project: true,
        external: false,
        identities: [],
      });
      expect(res.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    });

    it('shows an admin the admin fields', async () => {
      const res = await app.get('/api/v4/user', { token: 'admin' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(USER_WITH_ADMIN);
      expect(res.body.is_admin).toBe(true);
      expect(res.body.namespace_id).toBe(app.users.admin.namespaceId);
    });

    it('refuses anonymous callers', async () => {
      const res = await app.get('/api/v4/user');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: '401 Unauthorized' });
    });
  });

  describe('GET /users', () => {
    it('refuses anonymous callers without a username', async () => {
      const res = await app.get('/api/v4/users');
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden - Not authorized to access /api/v4/users' });
    });

    it('finds a user by username for anonymous callers, case-insensitively', async () => {
      const res = await app.get('/api/v4/users', { query: { username: 'OWNER' } });
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(1);
      expect(Object.keys(res.body[0])).toEqual(USER_BASIC);
      expect(res.body[0].username).toBe('owner');
    });

    it('lists UserBasic entries to a signed-in user, newest id first, with pagination headers', async () => {
      const res = await app.get('/api/v4/users', { token: 'guest', query: { per_page: 3 } });
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(3);
      expect(Object.keys(res.body[0])).toEqual(USER_BASIC);
      const ids = res.body.map((user: { id: number }) => user.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      expect(res.headers.get('x-per-page')).toBe('3');
      expect(res.headers.get('x-page')).toBe('1');
      expect(res.headers.get('x-next-page')).toBe('2');
      expect(Number(res.headers.get('x-total'))).toBeGreaterThanOrEqual(7);
    });

    it('searches by username or name, and by exact email', async () => {
      const byName = await app.get('/api/v4/users', { token: 'guest', query: { search: 'maintainer u' } });
      expect(byName.body.map((u: { username: string }) => u.username)).toEqual(['maintainer']);
      const byEmail = await app.get('/api/v4/users', { token: 'guest', query: { search: 'REPORTER@example.com' } });
      expect(byEmail.body.map((u: { username: string }) => u.username)).toEqual(['reporter']);
      const partialEmail = await app.get('/api/v4/users', { token: 'guest', query: { search: 'reporter@exa' } });
      expect(partialEmail.body).toEqual([]);
    });

    it('orders by username when asked', async () => {
      const res = await app.get('/api/v4/users', { token: 'guest', query: { order_by: 'username', sort: 'asc', per_page: 100 } });
      const names = res.body.map((user: { username: string }) => user.username);
      expect(names).toEqual([...names].sort());
    });

    it('gives admins the admin entity and admin-only filters', async () => {
      const res = await app.get('/api/v4/users', { token: 'admin', query: { admins: true } });
      expect(res.status).toBe(200);
      expect(res.body.map((u: { username: string }) => u.username)).toEqual(['administrator']);
      expect(Object.keys(res.body[0])).toEqual(USER_WITH_ADMIN);
    });

    it('drops admin-only filters silently for non-admins', async () => {
      const all = await app.get('/api/v4/users', { token: 'guest', query: { per_page: 100 } });
      const filtered = await app.get('/api/v4/users', { token: 'guest', query: { admins: true, per_page: 100 } });
      expect(filtered.status).toBe(200);
      expect(filtered.body.length).toBe(all.body.length);
    });

    it('filters blocked users', async () => {
      const user = await createUser();
      await app.post(`/api/v4/users/${user.id}/block`, undefined, { token: 'admin' });
      const blocked = await app.get('/api/v4/users', { token: 'admin', query: { blocked: true } });
      expect(blocked.body.map((u: { id: number }) => u.id)).toContain(user.id);
      expect(blocked.body.every((u: { state: string }) => u.state === 'blocked')).toBe(true);
      const active = await app.get('/api/v4/users', { token: 'admin', query: { active: true, per_page: 100 } });
      expect(active.body.map((u: { id: number }) => u.id)).not.toContain(user.id);
    });

    it('rejects a bad sort value', async () => {
      const res = await app.get('/api/v4/users', { token: 'guest', query: { sort: 'sideways' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'sort does not have a valid value' });
    });
    it('pages with keyset cursors by id, name or username, matching the offset order', async () => {
      for (const name of ['Same Name', 'Same Name', 'Same Name']) await createUser({ name });
      const follow = async (query: Record<string, string>) => {
        const ids: number[] = [];
        let path: string | null = `/api/v4/users?${new URLSearchParams({ pagination: 'keyset', per_page: '2', ...query })}`;
        while (path) {
          const res: TestResponse<{ id: number }[]> = await app.get(path.replace(/^https?:\/\/[^/]+/, ''), { token: 'admin' });
          expect(res.status).toBe(200);
          expect(res.headers.get('x-total')).toBeNull();
          ids.push(...res.body.map((user) => user.id));
          path = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1] ?? null;
          if (path) expect(path).toContain('cursor=');
        }
        return ids;
      };
      for (const query of [
        { order_by: 'id', sort: 'asc' },
        { order_by: 'name', sort: 'desc' },
        { order_by: 'username', sort: 'asc' },
      ]) {
        const offset = await app.get('/api/v4/users', { token: 'admin', query: { ...query, per_page: 100 } });
        const expected = offset.body.map((user: { id: number }) => user.id);
        expect(expected.length).toBeGreaterThan(4);
        expect(await follow(query)).toEqual(expected);
      }
    });

    it('refuses keyset pagination for other orders, and a forged cursor', async () => {
      expect(await app.get('/api/v4/users', { token: 'admin', query: { pagination: 'keyset', order_by: 'created_at' } })).toMatchObject({
        status: 405,
        body: { error: 'Keyset pagination is not yet available for this type of request' },
      });
      expect(await app.get('/api/v4/users', { token: 'admin', query: { pagination: 'keyset', cursor: 'not-a-cursor' } })).toMatchObject({
        status: 400,
        body: { error: 'cursor is invalid' },
      });
    });
  });

  describe('GET /users/:id', () => {
    it('shows the User entity, fields in order', async () => {
      const res = await app.get(`/api/v4/users/${app.users.owner.id}`, { token: 'guest' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(USER_DETAIL);
      expect(res.body).toMatchObject({ username: 'owner', bot: false, followers: 0, following: 0 });
    });

    it('shows anonymous callers the profile without is_followed', async () => {
      const res = await app.get(`/api/v4/users/${app.users.owner.id}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(USER_DETAIL.filter((key) => key !== 'is_followed'));
    });

    it('hides profile details of a private profile from others, not from admins', async () => {
      const user = await createUser({ private_profile: true });
      const other = await app.get(`/api/v4/users/${user.id}`, { token: 'guest' });
      expect(other.status).toBe(200);
      expect(other.body).not.toHaveProperty('created_at');
      expect(other.body).not.toHaveProperty('followers');
      const admin = await app.get(`/api/v4/users/${user.id}`, { token: 'admin' });
      expect(admin.body).toHaveProperty('created_at');
      expect(Object.keys(admin.body)).toEqual(USER_WITH_ADMIN);
    });

    it('answers an unknown id with 404 and a non-integer id with 400', async () => {
      const missing = await app.get('/api/v4/users/999999', { token: 'guest' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 User Not Found' });
      const bad = await app.get('/api/v4/users/abc', { token: 'guest' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'id is invalid' });
    });
  });

  describe('POST /users', () => {
    it('creates a user with a personal namespace and answers UserWithAdmin', async () => {
      const input = fresh({ bio: 'Hello', projects_limit: 5, external: true, note: 'vip' });
      const res = await app.post('/api/v4/users', input, { token: 'admin' });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(USER_WITH_ADMIN);
      expect(res.body).toMatchObject({
        username: input.username,
        name: input.name,
        email: input.email,
        bio: 'Hello',
        projects_limit: 5,
        external: true,
        can_create_project: false,
        note: 'vip',
        is_admin: false,
        state: 'active',
      });
      expect(res.body.created_by).toMatchObject({ id: app.users.admin.id, username: 'administrator' });
      const namespace = await app.get(`/api/v4/namespaces/${res.body.namespace_id}`, { token: 'admin' });
      expect(namespace.body).toMatchObject({ kind: 'user', path: input.username, full_path: input.username });
    });

    it('accepts reset_password or force_random_password instead of a password', async () => {
      const { password: _unused, ...withoutPassword } = fresh();
      const res = await app.post('/api/v4/users', { ...withoutPassword, force_random_password: true }, { token: 'admin' });
      expect(res.status).toBe(201);
    });

    it('requires one of the password params', async () => {
      const { password: _unused, ...withoutPassword } = fresh();
      const res = await app.post('/api/v4/users', withoutPassword, { token: 'admin' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'password, reset_password, force_random_password are missing, at least one parameter must be provided' });
    });

    it('requires email, name and username', async () => {
      const res = await app.post('/api/v4/users', { name: 'No Email', username: 'no-email', password: 'secret-password' }, { token: 'admin' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'email is missing' });
    });

    it('answers a taken email (any case) and a taken username with 409', async () => {
      const email = await app.post('/api/v4/users', fresh({ email: 'OWNER@EXAMPLE.COM' }), { token: 'admin' });
      expect(email.status).toBe(409);
      expect(email.body).toEqual({ message: 'Email has already been taken' });
      const username = await app.post('/api/v4/users', fresh({ username: 'Owner' }), { token: 'admin' });
      expect(username.status).toBe(409);
      expect(username.body).toEqual({ message: 'Username has already been taken' });
    });

    it('answers a username that is a top-level group path (any case) as a validation error, and a subgroup path is free', async () => {
      const group = await app.post('/api/v4/groups', { name: 'Taken Group', path: 'taken-group' }, { token: 'admin' });
      expect(group.status).toBe(201);
      for (const username of ['taken-group', 'Taken-Group', app.group.path]) {
        const res = await app.post('/api/v4/users', fresh({ username }), { token: 'admin' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ message: { username: ['has already been taken'] } });
      }
      const user = await createUser();
      const renamed = await app.put(`/api/v4/users/${user.id}`, { username: 'taken-group' }, { token: 'admin' });
      expect(renamed).toMatchObject({ status: 400, body: { message: { username: ['has already been taken'] } } });
      const sub = await app.post('/api/v4/groups', { name: 'Nested Only', path: 'nested-only', parent_id: group.body.id }, { token: 'admin' });
      expect(sub.status).toBe(201);
      expect((await app.post('/api/v4/users', fresh({ username: 'nested-only' }), { token: 'admin' })).status).toBe(201);
    });

    it('answers model errors with 400 and the field messages', async () => {
      const short = await app.post('/api/v4/users', fresh({ password: 'short' }), { token: 'admin' });
      expect(short.status).toBe(400);
      expect(short.body).toEqual({ message: { password: ['is too short (minimum is 8 characters)'] } });
      const email = await app.post('/api/v4/users', fresh({ email: 'not-an-email' }), { token: 'admin' });
      expect(email.body).toEqual({ message: { email: ['is invalid'] } });
      const username = await app.post('/api/v4/users', fresh({ username: '-bad' }), { token: 'admin' });
      expect(username.body).toEqual({
        message: { username: ["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"] },
      });
    });

    it('is for admins only', async () => {
      const res = await app.post('/api/v4/users', fresh(), { token: 'owner' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
    });
  });

  describe('PUT /users/:id', () => {
    it('updates profile fields and renames the personal namespace', async () => {
      const user = await createUser();
      const res = await app.put(`/api/v4/users/${user.id}`, { username: `${user.username}-renamed`, bio: 'Updated', admin: true }, { token: 'admin' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(USER_WITH_ADMIN);
      expect(res.body).toMatchObject({ username: `${user.username}-renamed`, bio: 'Updated', is_admin: true });
      const namespace = await app.get(`/api/v4/namespaces/${user.namespace_id}`, { token: 'admin' });
      expect(namespace.body.full_path).toBe(`${user.username}-renamed`);
    });

    it('keeps the caller own email without a conflict, refuses someone else', async () => {
      const user = await createUser();
      const same = await app.put(`/api/v4/users/${user.id}`, { email: user.email.toUpperCase() }, { token: 'admin' });
      expect(same.status).toBe(200);
      const taken = await app.put(`/api/v4/users/${user.id}`, { email: 'guest@example.com' }, { token: 'admin' });
      expect(taken.status).toBe(409);
      expect(taken.body).toEqual({ message: 'Email has already been taken' });
      const takenName = await app.put(`/api/v4/users/${user.id}`, { username: 'guest' }, { token: 'admin' });
      expect(takenName.status).toBe(409);
      expect(takenName.body).toEqual({ message: 'Username has already been taken' });
    });

    it('answers 404 for an unknown user, 400 for a bad password, 403 for non-admins', async () => {
      const missing = await app.put('/api/v4/users/999999', { bio: 'x' }, { token: 'admin' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 User Not Found' });
      const bad = await app.put(`/api/v4/users/${app.users.guest.id}`, { password: 'short' }, { token: 'admin' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ message: { password: ['is too short (minimum is 8 characters)'] } });
      const forbidden = await app.put(`/api/v4/users/${app.users.guest.id}`, { bio: 'x' }, { token: 'guest' });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body).toEqual({ message: '403 Forbidden' });
    });
  });

  describe('DELETE /users/:id', () => {
    it('deletes a user with their personal projects and tells other plugins', async () => {
      const user = await createUser();
      const users = app.kernel.resolve(coreUsersRef);
      const row = (await users.findById(user.id))!;
      const namespace = (await app.kernel.database.row(app.kernel.database.from(NamespaceEntity).where('id', row.namespaceId!))) as Namespace;
      const project = await app.kernel.resolve(coreProjectsRef).create(namespace, { name: 'Mine', path: 'mine' }, user.id);
      const seen: unknown[] = [];
      app.kernel.events.on('project.deleted', (payload) => void seen.push(['project', payload]));
      app.kernel.events.on('user.deleted', (payload) => void seen.push(['user', payload]));

      const res = await app.delete(`/api/v4/users/${user.id}`, { token: 'admin' });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(await users.findById(user.id)).toBeUndefined();
      expect(await app.kernel.resolve(coreProjectsRef).findById(project.id)).toBeUndefined();
      expect(seen).toEqual([
        ['project', { projectId: project.id }],
        ['user', { userId: user.id, hardDelete: false }],
      ]);
      expect((await app.get(`/api/v4/users/${user.id}`, { token: 'admin' })).status).toBe(404);
    });

    it('refuses to delete the sole owner of a group unless hard_delete', async () => {
      const user = await createUser();
      const group = await app.kernel.resolve(coreGroupsRef).create({ name: `Solo ${user.id}`, path: `solo-${user.id}` }, user.id);
      const refused = await app.delete(`/api/v4/users/${user.id}`, { token: 'admin' });
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ message: 'User cannot be removed while is the sole-owner of a group' });

      const hard = await app.delete(`/api/v4/users/${user.id}`, { token: 'admin', query: { hard_delete: true } });
      expect(hard.status).toBe(204);
      expect(await app.kernel.resolve(coreGroupsRef).findById(group.id)).toBeUndefined();
    });

    it('answers 404 for an unknown user and 403 for non-admins', async () => {
      const missing = await app.delete('/api/v4/users/999999', { token: 'admin' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 User Not Found' });
      const forbidden = await app.delete(`/api/v4/users/${app.users.guest.id}`, { token: 'owner' });
      expect(forbidden.status).toBe(403);
    });
  });

  describe('state changes', () => {
    const post = (id: number, action: string, token = 'admin') => app.post(`/api/v4/users/${id}/${action}`, undefined, { token });
    const stateOf = async (id: number) => (await app.get(`/api/v4/users/${id}`, { token: 'admin' })).body.state;

    it('blocks and unblocks, answering 201 true, and null when already blocked', async () => {
      const user = await createUser();
      const blocked = await post(user.id, 'block');
      expect(blocked.status).toBe(201);
      expect(blocked.text).toBe('true');
      expect(await stateOf(user.id)).toBe('blocked');
      const again = await post(user.id, 'block');
      expect(again.status).toBe(201);
      expect(again.text).toBe('null');
      const unblocked = await post(user.id, 'unblock');
      expect(unblocked.status).toBe(201);
      expect(unblocked.text).toBe('true');
      expect(await stateOf(user.id)).toBe('active');
    });

    it('refuses to block the calling admin or a bot', async () => {
      const self = await post(app.users.admin.id, 'block');
      expect(self.status).toBe(403);
      expect(self.body).toEqual({ message: '403 Forbidden - The API initiating user cannot be blocked by the API' });
      const bot = await app.kernel.resolve(coreUsersRef).create({ username: 'some-bot', name: 'Some Bot', email: 'bot@example.com', bot: true });
      const res = await post(bot.id, 'block');
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: 'An internal user cannot be blocked' });
      const deactivate = await post(bot.id, 'deactivate');
      expect(deactivate.status).toBe(403);
      expect(deactivate.body).toEqual({ message: '403 Forbidden - An internal user cannot be deactivated by the API' });
    });

    it('deactivates and activates', async () => {
      const user = await createUser();
      const deactivated = await post(user.id, 'deactivate');
      expect(deactivated.status).toBe(201);
      expect(deactivated.text).toBe('true');
      expect(await stateOf(user.id)).toBe('deactivated');
      expect((await post(user.id, 'deactivate')).text).toBe('null');

      const unblock = await post(user.id, 'unblock');
      expect(unblock.status).toBe(403);
      expect(unblock.body).toEqual({ message: '403 Forbidden - Deactivated users cannot be unblocked by the API' });

      const activated = await post(user.id, 'activate');
      expect(activated.status).toBe(201);
      expect(activated.text).toBe('true');
      expect(await stateOf(user.id)).toBe('active');
      expect((await post(user.id, 'activate')).text).toBe('true');
    });

    it('refuses to deactivate or activate a blocked user', async () => {
      const user = await createUser();
      await post(user.id, 'block');
      const deactivate = await post(user.id, 'deactivate');
      expect(deactivate.status).toBe(403);
      expect(deactivate.body).toEqual({ message: '403 Forbidden - A blocked user cannot be deactivated by the API' });
      const activate = await post(user.id, 'activate');
      expect(activate.status).toBe(403);
      expect(activate.body).toEqual({ message: '403 Forbidden - A blocked user must be unblocked to be activated' });
      expect(await stateOf(user.id)).toBe('blocked');
    });

    it('answers 404 for unknown users and 403 for non-admins', async () => {
      for (const action of ['block', 'unblock', 'deactivate', 'activate']) {
        const missing = await post(999999, action);
        expect(missing.status, action).toBe(404);
        expect(missing.body, action).toEqual({ message: '404 User Not Found' });
        const forbidden = await post(app.users.guest.id, action, 'owner');
        expect(forbidden.status, action).toBe(403);
        expect(forbidden.body, action).toEqual({ message: '403 Forbidden' });
      }
    });
  });
});
