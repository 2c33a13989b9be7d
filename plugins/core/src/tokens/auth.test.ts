import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { coreTokensRef, coreUsersRef } from '../contracts.js';

const UNAUTHORIZED = { message: '401 Unauthorized' };
const EXPIRED = { error: 'invalid_token', error_description: 'Token is expired. You can either do re-authorization or token refresh.' };
const REVOKED = { error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' };
const insufficient = (scope: string) => ({
  error: 'insufficient_scope',
  error_description: 'The request requires higher privileges than provided by the access token.',
  scope,
});

describe('authentication and token scopes', () => {
  let app: TestApp;
  let serial = 0;

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app?.close());

  async function newUser() {
    serial += 1;
    return app.kernel.resolve(coreUsersRef).create({ username: `auth-user-${serial}`, name: `Auth User ${serial}`, email: `auth-${serial}@example.com` });
  }

  async function tokenFor(userId: number, scopes: string[], expiresAt: string | null = null) {
    return (await app.kernel.resolve(coreTokensRef).create({ userId, name: 'scoped', scopes, expiresAt })).secret;
  }

  describe('token sources', () => {
    it('refuses anonymous callers on authenticated routes with 401', async () => {
      for (const path of ['/api/v4/user', '/api/v4/personal_access_tokens', '/api/v4/namespaces', '/api/v4/version', '/api/v4/metadata']) {
        const res = await app.get(path);
        expect(res.status, path).toBe(401);
        expect(res.body, path).toEqual(UNAUTHORIZED);
      }
    });

    it('refuses anonymous writes with 401', async () => {
      const res = await app.post('/api/v4/projects', { name: 'anon' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
    });

    it('answers an unknown token with the plain 401 body, even on public routes', async () => {
      for (const path of ['/api/v4/user', '/api/v4/projects']) {
        const res = await app.get(path, { token: 'fkpat-doesnotexist' });
        expect(res.status, path).toBe(401);
        expect(res.body, path).toEqual(UNAUTHORIZED);
      }
    });

    it('accepts the PRIVATE-TOKEN header, a Bearer header and the private_token and access_token params', async () => {
      const secret = app.tokens.developer;
      const variants = [
        app.get('/api/v4/user', { headers: { 'PRIVATE-TOKEN': secret } }),
        app.get('/api/v4/user', { headers: { Authorization: `Bearer ${secret}` } }),
        app.get('/api/v4/user', { query: { private_token: secret } }),
        app.get('/api/v4/user', { query: { access_token: secret } }),
      ];
      for (const res of await Promise.all(variants)) {
        expect(res.status).toBe(200);
        expect(res.body.username).toBe('developer');
      }
    });

    it('prefers the private_token param over the header', async () => {
      const res = await app.get('/api/v4/user', { query: { private_token: app.tokens.guest }, headers: { 'PRIVATE-TOKEN': app.tokens.reporter } });
      expect(res.status).toBe(200);
      expect(res.body.username).toBe('guest');
    });
  });

  describe('scopes', () => {
    it('lets read_api read everything but write nothing', async () => {
      const secret = await tokenFor(app.users.owner.id, ['read_api']);
      expect((await app.get('/api/v4/projects', { token: secret })).status).toBe(200);
      expect((await app.get(`/api/v4/projects/${app.project.id}`, { token: secret })).status).toBe(200);
      expect((await app.get('/api/v4/user', { token: secret })).status).toBe(200);

      const post = await app.post('/api/v4/projects', { name: 'never-created' }, { token: secret });
      expect(post.status).toBe(403);
      expect(post.body).toEqual(insufficient('api'));
      expect(post.headers.get('www-authenticate')).toContain('error="insufficient_scope"');

      const put = await app.put(`/api/v4/projects/${app.project.id}`, { description: 'no' }, { token: secret });
      expect(put.status).toBe(403);
      expect(put.body).toEqual(insufficient('api'));

      const del = await app.delete(`/api/v4/groups/${app.group.id}`, { token: secret });
      expect(del.status).toBe(403);
      expect(del.body).toEqual(insufficient('api'));
    });

    it('lets read_user read users, /version and /metadata but not projects', async () => {
      const secret = await tokenFor(app.users.developer.id, ['read_user']);
      for (const path of ['/api/v4/user', '/api/v4/users', `/api/v4/users/${app.users.owner.id}`, '/api/v4/version', '/api/v4/metadata']) {
        expect((await app.get(path, { token: secret })).status, path).toBe(200);
      }
      const projects = await app.get('/api/v4/projects', { token: secret });
      expect(projects.status).toBe(403);
      expect(projects.body).toEqual(insufficient('api read_api'));

      const groups = await app.get('/api/v4/groups', { token: secret });
      expect(groups.status).toBe(403);
      expect(groups.body).toEqual(insufficient('api read_api'));
    });

    it('refuses repository-only scopes on the API', async () => {
      const secret = await tokenFor(app.users.developer.id, ['read_repository', 'write_repository']);
      const res = await app.get('/api/v4/user', { token: secret });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(insufficient('api read_api read_user'));
    });
  });

  describe('token validity', () => {
    it('answers an expired token with invalid_token, even where anonymous access is allowed', async () => {
      const secret = await tokenFor(app.users.developer.id, ['api'], '2020-01-01');
      for (const path of ['/api/v4/user', '/api/v4/projects']) {
        const res = await app.get(path, { token: secret });
        expect(res.status, path).toBe(401);
        expect(res.body, path).toEqual(EXPIRED);
        expect(res.headers.get('www-authenticate'), path).toContain('error="invalid_token"');
      }
    });

    it('treats a token expiring today as expired and one expiring tomorrow as valid', async () => {
      const today = new Date().toISOString().slice(0, 10);
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      expect((await app.get('/api/v4/user', { token: await tokenFor(app.users.developer.id, ['api'], today) })).body).toEqual(EXPIRED);
      expect((await app.get('/api/v4/user', { token: await tokenFor(app.users.developer.id, ['api'], tomorrow) })).status).toBe(200);
    });

    it('answers a revoked token with invalid_token', async () => {
      const secret = await tokenFor(app.users.developer.id, ['api']);
      const self = await app.get('/api/v4/personal_access_tokens/self', { token: secret });
      await app.kernel.resolve(coreTokensRef).revoke(self.body.id);
      const res = await app.get('/api/v4/user', { token: secret });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(REVOKED);
    });

    it('revokes the whole token family when a rotated-away token is used again', async () => {
      const first = await tokenFor(app.users.developer.id, ['api']);
      const rotated = await app.post('/api/v4/personal_access_tokens/self/rotate', undefined, { token: first });
      expect(rotated.status).toBe(200);
      const second: string = rotated.body.token;
      expect((await app.get('/api/v4/user', { token: second })).status).toBe(200);

      expect((await app.get('/api/v4/user', { token: first })).body).toEqual(REVOKED);
      const res = await app.get('/api/v4/user', { token: second });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(REVOKED);
    });
  });

  describe('user state', () => {
    it('refuses a blocked user with the reason', async () => {
      const user = await newUser();
      const secret = await tokenFor(user.id, ['api']);
      expect((await app.post(`/api/v4/users/${user.id}/block`, undefined, { token: 'admin' })).status).toBe(201);
      const res = await app.get('/api/v4/user', { token: secret });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden - Your account has been blocked.' });
      const list = await app.get('/api/v4/projects', { token: secret });
      expect(list.status).toBe(403);
    });

    it('refuses a deactivated user with the reactivation hint', async () => {
      const user = await newUser();
      const secret = await tokenFor(user.id, ['api']);
      expect((await app.post(`/api/v4/users/${user.id}/deactivate`, undefined, { token: 'admin' })).status).toBe(201);
      const res = await app.get('/api/v4/user', { token: secret });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        message:
          '403 Forbidden - Your account has been deactivated by your administrator. Please log back in from a web browser to reactivate your account at http://localhost',
      });
    });

    it('refuses a user pending approval', async () => {
      const user = await newUser();
      const secret = await tokenFor(user.id, ['api']);
      await app.kernel.resolve(coreUsersRef).update(user.id, { state: 'blocked_pending_approval' });
      const res = await app.get('/api/v4/user', { token: secret });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden - Your account is pending approval from your administrator and hence blocked.' });
    });
  });

  describe('sudo', () => {
    it('lets an admin token with the sudo scope act as another user, by username, id or param', async () => {
      const byHeader = await app.get('/api/v4/user', { token: 'admin', headers: { Sudo: 'Developer' } });
      expect(byHeader.status).toBe(200);
      expect(byHeader.body.username).toBe('developer');
      expect(byHeader.body).not.toHaveProperty('is_admin');

      const byId = await app.get('/api/v4/user', { token: 'admin', query: { sudo: app.users.reporter.id } });
      expect(byId.body.username).toBe('reporter');
    });

    it('applies the impersonated user permissions', async () => {
      const res = await app.get(`/api/v4/projects/${app.project.id}`, { token: 'admin', headers: { Sudo: 'non-member' } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Project Not Found' });
      const admin = await app.get('/api/v4/application/settings', { token: 'admin', headers: { Sudo: 'developer' } });
      expect(admin.status).toBe(403);
      expect(admin.body).toEqual({ message: '403 Forbidden' });
    });

    it('refuses sudo from a non-admin', async () => {
      const res = await app.get('/api/v4/user', { token: 'owner', headers: { Sudo: 'developer' } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden - Must be admin to use sudo' });
    });

    it('refuses sudo from an admin token without the sudo scope', async () => {
      const secret = await tokenFor(app.users.admin.id, ['api']);
      const res = await app.get('/api/v4/user', { token: secret, headers: { Sudo: 'developer' } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(insufficient('sudo'));
    });

    it('answers an unknown sudo user with 404', async () => {
      const res = await app.get('/api/v4/user', { token: 'admin', headers: { Sudo: 'nobody-here' } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "404 User with ID or username 'nobody-here' Not Found" });
    });
  });

  describe('admin routes and unknown routes', () => {
    it('answers 401 to anonymous callers and 403 to non-admins on admin routes', async () => {
      const anonymous = await app.post('/api/v4/users', { name: 'x' });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual(UNAUTHORIZED);
      const member = await app.get('/api/v4/application/settings', { token: 'owner' });
      expect(member.status).toBe(403);
      expect(member.body).toEqual({ message: '403 Forbidden' });
    });

    it('answers an unknown path with the framework 404', async () => {
      const res = await app.get('/api/v4/no-such-thing', { token: 'admin' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: '404 Not Found' });
    });

    it('answers /api/v3 with 410', async () => {
      const res = await app.get('/api/v3/projects');
      expect(res.status).toBe(410);
      expect(res.body).toEqual({ error: 'API V3 is no longer supported. Use API V4 instead.' });
    });
  });
});
