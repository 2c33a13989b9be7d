import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kernelServices } from '@forgekit/kernel';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { FollowEntity } from '../entities/follow.js';
import { followsPlugin } from '../plugin.js';
import { MAX_FOLLOWEES } from './follow-service.js';

const USER_BASIC = ['id', 'username', 'public_email', 'name', 'state', 'locked', 'avatar_url', 'web_url'];

describe('follows', () => {
  let app: TestApp;
  let serial = 0;
  const follow = (id: number, token = 'developer') => app.post(`/api/v4/users/${id}/follow`, {}, { token });
  const unfollow = (id: number, token = 'developer') => app.post(`/api/v4/users/${id}/unfollow`, {}, { token });
  /** `token` null: anonymous. */
  const followersOf = (id: number, token: string | null = 'developer', query: Record<string, string | number> = {}) =>
    app.get(`/api/v4/users/${id}/followers`, { token: token ?? undefined, query });
  const followingOf = (id: number, token: string | null = 'developer', query: Record<string, string | number> = {}) =>
    app.get(`/api/v4/users/${id}/following`, { token: token ?? undefined, query });

  /** A new user with an `api` token. */
  async function newUser(extra: Record<string, unknown> = {}) {
    serial += 1;
    const username = `person-${serial}`;
    const user = (
      await app.post(
        '/api/v4/users',
        { username, name: `Person ${serial}`, email: `${username}@example.com`, password: 'secret-password', ...extra },
        { token: 'admin' },
      )
    ).body;
    const token = (await app.post(`/api/v4/users/${user.id}/personal_access_tokens`, { name: 'api', scopes: ['api'] }, { token: 'admin' })).body
      .token as string;
    return { id: user.id as number, username, token };
  }

  beforeAll(async () => {
    app = await createTestApp({ plugins: [followsPlugin] });
  });
  afterAll(() => app?.close());

  describe('POST /users/:id/follow', () => {
    it('follows a user: 201 with the followed user as UserBasic', async () => {
      const res = await follow(app.users.reporter.id);
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(USER_BASIC);
      expect(res.body).toMatchObject({ id: app.users.reporter.id, username: app.users.reporter.username, state: 'active', locked: false });
    });

    it('answers 304 with no body when already following, and for oneself', async () => {
      const again = await follow(app.users.reporter.id);
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect((await follow(app.users.developer.id)).status).toBe(304);
      expect((await followingOf(app.users.developer.id)).body.map((user: { id: number }) => user.id)).toEqual([app.users.reporter.id]);
    });

    it('answers 404 for an unknown user, 400 for a bad id, 401 anonymous', async () => {
      const missing = await follow(999999);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 User Not Found' });
      expect((await follow(2 ** 40)).body).toEqual({ message: '404 User Not Found' });
      const bad = await app.post('/api/v4/users/someone/follow', {}, { token: 'developer' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'id is invalid' });
      expect((await app.post(`/api/v4/users/${app.users.reporter.id}/follow`, {})).status).toBe(401);
    });

    it(`stops at ${MAX_FOLLOWEES} followed users with GitLab's message`, async () => {
      const eager = await newUser();
      // The limit counts follows, whoever they name: fill it without making 300 users.
      const database = app.kernel.resolve(kernelServices.database);
      const others = Array.from({ length: MAX_FOLLOWEES - 1 }, (_, i) => 1_000_000 + i);
      await database.insertMany(
        FollowEntity,
        others.map((followeeId) => ({ followerId: eager.id, followeeId, createdAt: new Date() })),
      );
      expect((await follow(app.users.owner.id, eager.token)).status).toBe(201);
      const res = await follow(app.users.guest.id, eager.token);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: `You can't follow more than ${MAX_FOLLOWEES} users. To follow more users, unfollow some others.` });
      expect((await followersOf(app.users.guest.id)).body).toEqual([]);
      // Following someone already followed is still a no-op at the limit.
      expect((await follow(app.users.owner.id, eager.token)).status).toBe(304);
      expect((await unfollow(app.users.owner.id, eager.token)).status).toBe(201);
      expect((await follow(app.users.guest.id, eager.token)).status).toBe(201);
    });
  });

  describe('POST /users/:id/unfollow', () => {
    it('unfollows: 201 with the user, then 304', async () => {
      expect((await follow(app.users.guest.id)).status).toBe(201);
      const res = await unfollow(app.users.guest.id);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ id: app.users.guest.id, username: app.users.guest.username });
      const again = await unfollow(app.users.guest.id);
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect((await unfollow(999999)).body).toEqual({ message: '404 User Not Found' });
    });
  });

  describe('GET /users/:id/followers and /following', () => {
    it('list UserBasic, paginated by user id', async () => {
      for (const token of ['maintainer', 'guest', 'owner']) expect((await follow(app.users.nonMember.id, token)).status).toBe(201);
      const first = await followersOf(app.users.nonMember.id, 'developer', { per_page: 2 });
      expect(first.status).toBe(200);
      expect(first.headers.get('x-total')).toBe('3');
      expect(first.headers.get('x-next-page')).toBe('2');
      const ids = [app.users.maintainer.id, app.users.guest.id, app.users.owner.id].sort((a, b) => a - b);
      expect(first.body.map((user: { id: number }) => user.id)).toEqual(ids.slice(0, 2));
      expect(Object.keys(first.body[0])).toEqual(USER_BASIC);
      const second = await followersOf(app.users.nonMember.id, 'developer', { per_page: 2, page: 2 });
      expect(second.body.map((user: { id: number }) => user.id)).toEqual(ids.slice(2));
      const following = await followingOf(app.users.guest.id);
      expect(following.body.map((user: { id: number }) => user.id)).toEqual([app.users.nonMember.id]);
      expect((await followersOf(app.users.admin.id)).body).toEqual([]);
    });

    it('refuse anonymous callers with 403, and 404 for unknown users', async () => {
      const anonymous = await followersOf(app.users.nonMember.id, null);
      expect(anonymous.status).toBe(403);
      expect(anonymous.body).toEqual({ message: '403 Forbidden - Not authorized!' });
      expect((await followingOf(app.users.nonMember.id, null)).status).toBe(403);
      expect((await followersOf(999999)).body).toEqual({ message: '404 User Not Found' });
      expect((await app.get('/api/v4/users/abc/following', { token: 'developer' })).body).toEqual({ error: 'id is invalid' });
    });

    it('hide a private profile’s lists from all but the user and administrators', async () => {
      const hidden = await newUser({ private_profile: true });
      expect((await follow(hidden.id, 'reporter')).status).toBe(201);
      const res = await followersOf(hidden.id, 'developer');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 User Not Found' });
      expect((await followersOf(hidden.id, hidden.token)).body.map((user: { id: number }) => user.id)).toEqual([app.users.reporter.id]);
      expect((await followingOf(hidden.id, 'admin')).status).toBe(200);
    });

    it('leave blocked and deactivated users out of lists, and hide a blocked user’s own lists', async () => {
      const blocked = await newUser();
      const deactivated = await newUser();
      const target = await newUser();
      for (const user of [blocked, deactivated]) expect((await follow(target.id, user.token)).status).toBe(201);
      expect((await follow(target.id, 'reporter')).status).toBe(201);
      expect((await follow(blocked.id, 'reporter')).status).toBe(201);
      expect((await app.post(`/api/v4/users/${blocked.id}/block`, {}, { token: 'admin' })).status).toBe(201);
      expect((await app.post(`/api/v4/users/${deactivated.id}/deactivate`, {}, { token: 'admin' })).status).toBe(201);

      const followers = await followersOf(target.id);
      expect(followers.body.map((user: { id: number }) => user.id)).toEqual([app.users.reporter.id]);
      expect(followers.headers.get('x-total')).toBe('1');
      expect((await followingOf(app.users.reporter.id)).body.map((user: { id: number }) => user.id)).not.toContain(blocked.id);
      expect((await followersOf(blocked.id, 'developer')).status).toBe(404);
      expect((await followersOf(blocked.id, 'admin')).status).toBe(200);
    });
  });

  describe('counts on the user entity', () => {
    it('shows followers, following and is_followed where core shows them', async () => {
      const user = await newUser();
      await follow(user.id, 'developer');
      await follow(user.id, 'guest');
      await follow(app.users.reporter.id, user.token);
      const seen = await app.get(`/api/v4/users/${user.id}`, { token: 'developer' });
      expect(seen.body).toMatchObject({ followers: 2, following: 1, is_followed: true });
      const byOther = await app.get(`/api/v4/users/${user.id}`, { token: 'maintainer' });
      expect(byOther.body).toMatchObject({ followers: 2, following: 1, is_followed: false });
      expect((await app.get(`/api/v4/users/${user.id}`)).body).toMatchObject({ followers: 2, following: 1 });
      expect((await app.get(`/api/v4/users/${user.id}`)).body).not.toHaveProperty('is_followed');
      expect((await app.get('/api/v4/user', { token: user.token })).body).toMatchObject({ followers: 2, following: 1 });
      const admin = await app.get('/api/v4/users', { token: 'admin', query: { username: user.username } });
      expect(admin.body[0]).toMatchObject({ followers: 2, following: 1, is_followed: false });
    });

    it('count only active users', async () => {
      const user = await newUser();
      const fan = await newUser();
      await follow(user.id, fan.token);
      await follow(user.id, 'owner');
      expect((await app.get(`/api/v4/users/${user.id}`, { token: 'admin' })).body.followers).toBe(2);
      await app.post(`/api/v4/users/${fan.id}/block`, {}, { token: 'admin' });
      expect((await app.get(`/api/v4/users/${user.id}`, { token: 'admin' })).body.followers).toBe(1);
    });
  });

  it('forgets a deleted user’s follows, both ways', async () => {
    const leaving = await newUser();
    await follow(leaving.id, 'maintainer');
    await follow(app.users.maintainer.id, leaving.token);
    expect((await app.delete(`/api/v4/users/${leaving.id}`, { token: 'admin' })).status).toBe(204);
    expect((await followingOf(app.users.maintainer.id)).body.map((user: { id: number }) => user.id)).not.toContain(leaving.id);
    expect((await app.get(`/api/v4/users/${app.users.maintainer.id}`, { token: 'admin' })).body.followers).toBe(0);
  });
});
