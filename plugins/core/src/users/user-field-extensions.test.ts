import { definePlugin } from '@forgekit/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { coreUsersRef } from '../contracts.js';

/** A plugin that contributes `followers` to core's user answers, as the follows plugin does. */
const seen: { ids: number[]; viewer: number | null }[] = [];
const countsPlugin = definePlugin({
  id: 'user-field-test',
  compatibility: '^0.1.0',
  requires: [coreUsersRef],
  register(ctx) {
    ctx.resolve(coreUsersRef).extendFields(async (entries, viewer) => {
      seen.push({ ids: entries.map((entry) => entry.user.id), viewer: viewer?.id ?? null });
      for (const { user, body } of entries) if ('followers' in body) body.followers = user.id * 10;
    });
  },
});

describe('user field extensions', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [countsPlugin] });
  });
  afterAll(() => app?.close());

  it('reach GET /users/:id, for anonymous callers and members', async () => {
    const id = app.users.developer.id;
    const anonymous = await app.get(`/api/v4/users/${id}`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.followers).toBe(id * 10);
    const member = await app.get(`/api/v4/users/${id}`, { token: 'guest' });
    expect(member.body.followers).toBe(id * 10);
    expect(seen.at(-1)).toEqual({ ids: [id], viewer: app.users.guest.id });
  });

  it('reach GET /user, and the admin view', async () => {
    expect((await app.get('/api/v4/user', { token: 'reporter' })).body.followers).toBe(app.users.reporter.id * 10);
    const admin = await app.get('/api/v4/user', { token: 'admin' });
    expect(admin.body).toMatchObject({ is_admin: true, followers: app.users.admin.id * 10 });
  });

  it('run once over a whole admin list', async () => {
    seen.length = 0;
    const list = await app.get('/api/v4/users', { token: 'admin', query: { per_page: 3, order_by: 'id', sort: 'asc' } });
    expect(list.status).toBe(200);
    expect(list.body.map((user: { followers: number; id: number }) => user.followers)).toEqual(list.body.map((user: { id: number }) => user.id * 10));
    expect(seen).toEqual([{ ids: list.body.map((user: { id: number }) => user.id), viewer: app.users.admin.id }]);
  });

  it('leave out the fields a private profile hides', async () => {
    const created = await app.post(
      '/api/v4/users',
      { username: 'hidden-one', name: 'Hidden', email: 'hidden-one@example.com', password: 'secret-password', private_profile: true },
      { token: 'admin' },
    );
    const res = await app.get(`/api/v4/users/${created.body.id}`, { token: 'guest' });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('followers');
  });

  it('findByIds answers the users that exist, in id order', async () => {
    const users = app.kernel.resolve(coreUsersRef);
    const found = await users.findByIds([app.users.guest.id, 999_999, app.users.admin.id, app.users.guest.id, 2 ** 40]);
    expect(found.map((user) => user.id)).toEqual([app.users.admin.id, app.users.guest.id].sort((a, b) => a - b));
    expect(await users.findByIds([])).toEqual([]);
  });
});
