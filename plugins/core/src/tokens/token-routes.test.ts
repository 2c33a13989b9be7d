import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { coreTokensRef, coreUsersRef } from '../contracts.js';

const TOKEN_FIELDS = ['id', 'name', 'revoked', 'created_at', 'description', 'scopes', 'user_id', 'last_used_at', 'active', 'expires_at'];
const REVOKED = { error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' };
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('personal access tokens', () => {
  let app: TestApp;
  let serial = 0;

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app?.close());

  /** A user of their own, so token lists start empty. */
  async function newUser() {
    serial += 1;
    return app.kernel.resolve(coreUsersRef).create({ username: `pat-user-${serial}`, name: `Pat ${serial}`, email: `pat-${serial}@example.com` });
  }

  async function tokenFor(userId: number, name = 'token', scopes = ['api'], expiresAt: string | null = null) {
    const { token, secret } = await app.kernel.resolve(coreTokensRef).create({ userId, name, scopes, expiresAt });
    return { id: token.id, secret };
  }

  describe('POST /users/:user_id/personal_access_tokens', () => {
    it('creates a token for a user, showing the secret once', async () => {
      const user = await newUser();
      const expires = inDays(30);
      const res = await app.post(
        `/api/v4/users/${user.id}/personal_access_tokens`,
        { name: 'ci', scopes: ['api', 'read_user'], expires_at: expires, description: 'for CI' },
        { token: 'admin' },
      );
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual([...TOKEN_FIELDS, 'token']);
      expect(res.body).toMatchObject({
        name: 'ci',
        revoked: false,
        description: 'for CI',
        scopes: ['api', 'read_user'],
        user_id: user.id,
        last_used_at: null,
        active: true,
        expires_at: expires,
      });
      expect(res.body.token).toMatch(/^fkpat-[A-Za-z0-9]{20}$/);
      const me = await app.get('/api/v4/user', { token: res.body.token });
      expect(me.body.username).toBe(user.username);
      const shown = await app.get(`/api/v4/personal_access_tokens/${res.body.id}`, { token: 'admin' });
      expect(shown.body).not.toHaveProperty('token');
    });

    it('accepts scopes as a comma-separated string', async () => {
      const user = await newUser();
      const res = await app.post(`/api/v4/users/${user.id}/personal_access_tokens`, { name: 'comma', scopes: 'read_api, read_user' }, { token: 'admin' });
      expect(res.status).toBe(201);
      expect(res.body.scopes).toEqual(['read_api', 'read_user']);
      expect(res.body.expires_at).toBeNull();
    });

    it('answers parameter errors with 400', async () => {
      const user = await newUser();
      const path = `/api/v4/users/${user.id}/personal_access_tokens`;
      expect((await app.post(path, { scopes: ['api'] }, { token: 'admin' })).body).toEqual({ error: 'name is missing' });
      expect((await app.post(path, { name: 'x' }, { token: 'admin' })).body).toEqual({ error: 'scopes is missing' });
      const badScope = await app.post(path, { name: 'x', scopes: ['api', 'everything'] }, { token: 'admin' });
      expect(badScope.status).toBe(400);
      expect(badScope.body).toEqual({ error: 'scopes does not have a valid value' });
      const badDate = await app.post(path, { name: 'x', scopes: ['api'], expires_at: 'soon' }, { token: 'admin' });
      expect(badDate.status).toBe(400);
      expect(badDate.body).toEqual({ error: 'expires_at is invalid' });
      const badUser = await app.post('/api/v4/users/abc/personal_access_tokens', { name: 'x', scopes: ['api'] }, { token: 'admin' });
      expect(badUser.status).toBe(400);
      expect(badUser.body).toEqual({ error: 'user_id is invalid' });
    });

    it('answers the token model errors with 422', async () => {
      const user = await newUser();
      const path = `/api/v4/users/${user.id}/personal_access_tokens`;
      const empty = await app.post(path, { name: 'x', scopes: [] }, { token: 'admin' });
      expect(empty.status).toBe(422);
      expect(empty.body).toEqual({ message: "Scopes can't be blank" });
      const adminScope = await app.post(path, { name: 'x', scopes: ['api', 'sudo'] }, { token: 'admin' });
      expect(adminScope.status).toBe(422);
      expect(adminScope.body).toEqual({ message: 'Scopes can only contain available scopes' });
      const long = await app.post(path, { name: 'x', scopes: ['api'], description: 'd'.repeat(256) }, { token: 'admin' });
      expect(long.status).toBe(422);
      expect(long.body).toEqual({ message: 'Description is too long (maximum is 255 characters)' });
    });

    it('lets an admin user have admin-only scopes', async () => {
      const res = await app.post(`/api/v4/users/${app.users.admin.id}/personal_access_tokens`, { name: 'sudo', scopes: ['api', 'sudo'] }, { token: 'admin' });
      expect(res.status).toBe(201);
      expect(res.body.scopes).toEqual(['api', 'sudo']);
    });

    it('answers 404 for an unknown user, 403 for non-admins and 401 for anonymous callers', async () => {
      const body = { name: 'x', scopes: ['api'] };
      const missing = await app.post('/api/v4/users/999999/personal_access_tokens', body, { token: 'admin' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 User Not Found' });
      const member = await app.post(`/api/v4/users/${app.users.owner.id}/personal_access_tokens`, body, { token: 'owner' });
      expect(member.status).toBe(403);
      expect(member.body).toEqual({ message: '403 Forbidden' });
      const anonymous = await app.post(`/api/v4/users/${app.users.owner.id}/personal_access_tokens`, body);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ message: '401 Unauthorized' });
    });
  });

  describe('POST /user/personal_access_tokens', () => {
    it('lets a user create a self_rotate or k8s_proxy token for themselves', async () => {
      const res = await app.post('/api/v4/user/personal_access_tokens', { name: 'rotator', scopes: ['self_rotate'] }, { token: 'guest' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name: 'rotator', scopes: ['self_rotate'], user_id: app.users.guest.id });
      expect(res.body.token).toMatch(/^fkpat-/);
    });

    it('refuses any other scope', async () => {
      const res = await app.post('/api/v4/user/personal_access_tokens', { name: 'wide', scopes: ['api'] }, { token: 'guest' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'scopes does not have a valid value' });
    });
  });

  describe('GET /personal_access_tokens', () => {
    it('lists only the caller own tokens, newest first, with pagination headers', async () => {
      const user = await newUser();
      const first = await tokenFor(user.id, 'first');
      const second = await tokenFor(user.id, 'second');
      const res = await app.get('/api/v4/personal_access_tokens', { token: second.secret });
      expect(res.status).toBe(200);
      expect(res.body.map((token: { id: number }) => token.id)).toEqual([second.id, first.id]);
      expect(Object.keys(res.body[0])).toEqual(TOKEN_FIELDS);
      expect(res.headers.get('x-total')).toBe('2');
      expect(res.headers.get('x-total-pages')).toBe('1');
      expect(res.headers.get('x-next-page')).toBe('');
    });

    it('lets an admin list everybody or filter by user_id', async () => {
      const user = await newUser();
      const mine = await tokenFor(user.id, 'mine');
      const all = await app.get('/api/v4/personal_access_tokens', { token: 'admin', query: { per_page: 100 } });
      expect(new Set(all.body.map((token: { user_id: number }) => token.user_id)).size).toBeGreaterThan(1);
      const filtered = await app.get('/api/v4/personal_access_tokens', { token: 'admin', query: { user_id: user.id } });
      expect(filtered.body.map((token: { id: number }) => token.id)).toEqual([mine.id]);
    });

    it('answers 401 when a non-admin filters on another user', async () => {
      const res = await app.get('/api/v4/personal_access_tokens', { token: 'guest', query: { user_id: app.users.owner.id } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: '401 Unauthorized' });
      const own = await app.get('/api/v4/personal_access_tokens', { token: 'guest', query: { user_id: app.users.guest.id } });
      expect(own.status).toBe(200);
    });

    it('filters by state, revoked, search and sorts by name', async () => {
      const user = await newUser();
      const caller = await tokenFor(user.id, 'caller');
      const expired = await tokenFor(user.id, 'old deploy', ['api'], '2020-01-01');
      const revoked = await tokenFor(user.id, 'deploy revoked');
      await app.kernel.resolve(coreTokensRef).revoke(revoked.id);
      const ids = async (query: Record<string, string | boolean>) =>
        (await app.get('/api/v4/personal_access_tokens', { token: caller.secret, query })).body.map((token: { id: number }) => token.id);

      expect(await ids({ state: 'active' })).toEqual([caller.id]);
      expect((await ids({ state: 'inactive' })).sort()).toEqual([expired.id, revoked.id].sort());
      expect(await ids({ revoked: true })).toEqual([revoked.id]);
      expect((await ids({ search: 'DEPLOY' })).sort()).toEqual([expired.id, revoked.id].sort());
      expect(await ids({ sort: 'name_asc' })).toEqual([caller.id, revoked.id, expired.id]);
      const bad = await app.get('/api/v4/personal_access_tokens', { token: caller.secret, query: { state: 'sleeping' } });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'state does not have a valid value' });
    });
  });

  describe('GET /personal_access_tokens/:id', () => {
    it('shows the caller own token, by id or as self', async () => {
      const user = await newUser();
      const token = await tokenFor(user.id, 'mine');
      const byId = await app.get(`/api/v4/personal_access_tokens/${token.id}`, { token: token.secret });
      expect(byId.status).toBe(200);
      expect(Object.keys(byId.body)).toEqual(TOKEN_FIELDS);
      expect(byId.body).toMatchObject({ id: token.id, name: 'mine', user_id: user.id, active: true });
      const self = await app.get('/api/v4/personal_access_tokens/self', { token: token.secret });
      // last_used_at is bookkeeping written beside the first request, so it is left out of the comparison.
      const { last_used_at: _a, ...selfRest } = self.body;
      const { last_used_at: _b, ...byIdRest } = byId.body;
      expect(selfRest).toEqual(byIdRest);
    });

    it('answers 401 to non-admins for tokens of others or unknown ids; admins get the token or 404', async () => {
      const user = await newUser();
      const token = await tokenFor(user.id);
      for (const id of [token.id, 999999]) {
        const res = await app.get(`/api/v4/personal_access_tokens/${id}`, { token: 'guest' });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ message: '401 Unauthorized' });
      }
      expect((await app.get(`/api/v4/personal_access_tokens/${token.id}`, { token: 'admin' })).status).toBe(200);
      const missing = await app.get('/api/v4/personal_access_tokens/999999', { token: 'admin' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 Not Found' });
      const bad = await app.get('/api/v4/personal_access_tokens/abc', { token: 'admin' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'id is invalid' });
    });
  });

  describe('rotate', () => {
    it('rotates the presenting token: 200, same name and scopes, a week of life, the old one revoked', async () => {
      const user = await newUser();
      const old = await tokenFor(user.id, 'rotating', ['api', 'read_user']);
      const res = await app.post('/api/v4/personal_access_tokens/self/rotate', undefined, { token: old.secret });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual([...TOKEN_FIELDS, 'token']);
      expect(res.body).toMatchObject({ name: 'rotating', scopes: ['api', 'read_user'], active: true, revoked: false, expires_at: inDays(7) });
      expect(res.body.id).not.toBe(old.id);
      expect(res.body.token).not.toBe(old.secret);
      expect((await app.get('/api/v4/user', { token: res.body.token })).status).toBe(200);
      const oldRow = await app.kernel.resolve(coreTokensRef).findById(old.id);
      expect(oldRow!.revoked).toBeTruthy();
    });

    it('rotates by id with a chosen expiry', async () => {
      const user = await newUser();
      const caller = await tokenFor(user.id, 'caller');
      const target = await tokenFor(user.id, 'target');
      const res = await app.post(`/api/v4/personal_access_tokens/${target.id}/rotate`, { expires_at: inDays(3) }, { token: caller.secret });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: 'target', expires_at: inDays(3) });
    });

    it('lets a self_rotate token rotate itself only', async () => {
      const user = await newUser();
      const rotator = await tokenFor(user.id, 'rotator', ['self_rotate']);
      const other = await tokenFor(user.id, 'other');
      const byId = await app.post(`/api/v4/personal_access_tokens/${other.id}/rotate`, undefined, { token: rotator.secret });
      expect(byId.status).toBe(403);
      expect(byId.body).toMatchObject({ error: 'insufficient_scope', scope: 'api' });
      const self = await app.post('/api/v4/personal_access_tokens/self/rotate', undefined, { token: rotator.secret });
      expect(self.status).toBe(200);
      expect(self.body.scopes).toEqual(['self_rotate']);
    });

    it('refuses read-only tokens', async () => {
      const user = await newUser();
      const reader = await tokenFor(user.id, 'reader', ['read_api']);
      const res = await app.post('/api/v4/personal_access_tokens/self/rotate', undefined, { token: reader.secret });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error: 'insufficient_scope',
        error_description: 'The request requires higher privileges than provided by the access token.',
        scope: 'api self_rotate',
      });
    });

    it('answers 401 for another user token or a revoked one, 404 for admins on unknown ids', async () => {
      const user = await newUser();
      const target = await tokenFor(user.id);
      const other = await app.post(`/api/v4/personal_access_tokens/${target.id}/rotate`, undefined, { token: 'guest' });
      expect(other.status).toBe(401);
      expect(other.body).toEqual({ message: '401 Unauthorized' });
      await app.kernel.resolve(coreTokensRef).revoke(target.id);
      const revoked = await app.post(`/api/v4/personal_access_tokens/${target.id}/rotate`, undefined, { token: 'admin' });
      expect(revoked.status).toBe(401);
      expect(revoked.body).toEqual({ message: '401 Unauthorized' });
      const missing = await app.post('/api/v4/personal_access_tokens/999999/rotate', undefined, { token: 'admin' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 Not Found' });
    });
  });

  describe('DELETE /personal_access_tokens/:id', () => {
    it('revokes the presenting token with 204', async () => {
      const user = await newUser();
      const token = await tokenFor(user.id);
      const res = await app.delete('/api/v4/personal_access_tokens/self', { token: token.secret });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await app.get('/api/v4/user', { token: token.secret })).body).toEqual(REVOKED);
    });

    it('revokes an own token by id, and an admin revokes anybody', async () => {
      const user = await newUser();
      const caller = await tokenFor(user.id, 'caller');
      const target = await tokenFor(user.id, 'target');
      expect((await app.delete(`/api/v4/personal_access_tokens/${target.id}`, { token: caller.secret })).status).toBe(204);
      expect((await app.get(`/api/v4/personal_access_tokens/${target.id}`, { token: caller.secret })).body.revoked).toBe(true);
      expect((await app.delete(`/api/v4/personal_access_tokens/${caller.id}`, { token: 'admin' })).status).toBe(204);
      expect((await app.get('/api/v4/user', { token: caller.secret })).body).toEqual(REVOKED);
    });

    it('refuses someone else token with 400 and an unknown id with 404', async () => {
      const user = await newUser();
      const target = await tokenFor(user.id);
      const other = await app.delete(`/api/v4/personal_access_tokens/${target.id}`, { token: 'guest' });
      expect(other.status).toBe(400);
      expect(other.body).toEqual({ message: '400 Bad request' });
      const missing = await app.delete('/api/v4/personal_access_tokens/999999', { token: 'guest' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 Not found' });
      expect((await app.get('/api/v4/user', { token: target.secret })).status).toBe(200);
    });
  });

  describe('last use', () => {
    it('is stamped once for a burst of requests that arrive before the stamp lands', async () => {
      const user = await newUser();
      const { id, secret } = await tokenFor(user.id);
      const stamps: string[] = [];
      const stop = app.kernel.database.observeStatements((sql) => {
        if (/^update .personal_access_tokens./i.test(sql)) stamps.push(sql);
      });
      try {
        const answers = await Promise.all(Array.from({ length: 10 }, () => app.get('/api/v4/user', { token: secret })));
        expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
        await vi.waitFor(async () => expect((await app.kernel.resolve(coreTokensRef).findById(id))?.lastUsedAt).toBeTruthy());
        for (let i = 0; i < 3; i++) expect((await app.get('/api/v4/user', { token: secret })).status).toBe(200);
        expect(stamps).toHaveLength(1);
      } finally {
        stop();
      }
    });
  });
});
