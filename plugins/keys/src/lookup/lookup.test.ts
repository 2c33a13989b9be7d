import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { keysPlugin } from '../plugin.js';
import { fingerprintsOf, newSshKey } from '../testing/test-keys.js';

const SSH_KEY_FIELDS = ['id', 'title', 'created_at', 'expires_at', 'last_used_at', 'key', 'usage_type', 'user'];
const BY_ID_USER = [
  'id',
  'username',
  'name',
  'state',
  'avatar_url',
  'web_url',
  'created_at',
  'bio',
  'location',
  'public_email',
  'linkedin',
  'twitter',
  'website_url',
  'organization',
];
const FINGERPRINT_USER = [
  ...BY_ID_USER,
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
];

describe('key lookup', () => {
  let app: TestApp;
  let userKey: { id: number; text: string };
  let deployKey: { id: number; text: string };

  beforeAll(async () => {
    app = await createTestApp({ plugins: [keysPlugin] });
    const userText = newSshKey('ed25519');
    userKey = { id: (await app.post('/api/v4/user/keys', { title: 'Dev laptop', key: userText }, { token: 'developer' })).body.id, text: userText };
    const deployText = newSshKey('ecdsa', 256);
    const created = await app.post(
      `/api/v4/projects/${app.project.id}/deploy_keys`,
      { title: 'Deployer', key: deployText, can_push: true },
      { token: 'maintainer' },
    );
    deployKey = { id: created.body.id, text: deployText };
  });
  afterAll(() => app?.close());

  const lookUp = (fingerprint: string, token = 'admin') => app.get('/api/v4/keys', { token, query: { fingerprint } });

  describe('GET /keys/:id', () => {
    it('answers the key with its user, in the shorter field set', async () => {
      const res = await app.get(`/api/v4/keys/${userKey.id}`, { token: 'admin' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(SSH_KEY_FIELDS);
      expect(Object.keys(res.body.user)).toEqual(BY_ID_USER);
      expect(res.body).toMatchObject({
        id: userKey.id,
        title: 'Dev laptop',
        user: { id: app.users.developer.id, username: app.users.developer.username, state: 'active' },
      });
      expect(res.body.user).not.toHaveProperty('is_admin');
    });

    it('answers 404 Not found for an unknown id, and 403 to non-administrators', async () => {
      expect((await app.get('/api/v4/keys/999999', { token: 'admin' })).body).toEqual({ message: '404 Not found' });
      const text = await app.get('/api/v4/keys/abc', { token: 'admin' });
      expect(text.status).toBe(404);
      expect(text.body).toEqual({ message: '404 Not found' });
      expect((await app.get('/api/v4/keys/99999999999999999999', { token: 'admin' })).status).toBe(404);
      const denied = await app.get(`/api/v4/keys/${userKey.id}`, { token: 'maintainer' });
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual({ message: '403 Forbidden' });
      expect((await app.get(`/api/v4/keys/${userKey.id}`)).status).toBe(401);
    });
  });

  describe('GET /keys?fingerprint=', () => {
    it('finds a user’s key by its MD5 and its SHA256 fingerprint, with the fuller user', async () => {
      const { md5, sha256 } = fingerprintsOf(userKey.text);
      const byMd5 = await lookUp(md5);
      expect(byMd5.status).toBe(200);
      expect(Object.keys(byMd5.body)).toEqual(SSH_KEY_FIELDS);
      expect(Object.keys(byMd5.body.user)).toEqual(FINGERPRINT_USER);
      const developer = (await app.get(`/api/v4/users/${app.users.developer.id}`, { token: 'admin' })).body;
      expect(byMd5.body).toMatchObject({ id: userKey.id, user: { id: developer.id, email: developer.email, projects_limit: developer.projects_limit } });
      const bySha = await lookUp(sha256);
      expect(bySha.body).toEqual(byMd5.body);
      // The query string as curl sends it, `:` and `/` percent-encoded.
      const encoded = await app.get(`/api/v4/keys?fingerprint=${encodeURIComponent(sha256)}`, { token: 'admin' });
      expect(encoded.body.id).toBe(userKey.id);
      expect((await lookUp(`sha256:${sha256.slice('SHA256:'.length)}`)).body.id).toBe(userKey.id);
    });

    it('finds a deploy key with the projects that use it, and the minutes limits of its user', async () => {
      const { md5, sha256 } = fingerprintsOf(deployKey.text);
      const res = await lookUp(sha256);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual([...SSH_KEY_FIELDS, 'deploy_keys_projects']);
      expect(Object.keys(res.body.user)).toEqual([...FINGERPRINT_USER, 'shared_runners_minutes_limit', 'extra_shared_runners_minutes_limit']);
      expect(res.body.user).toMatchObject({ id: app.users.maintainer.id, shared_runners_minutes_limit: null, extra_shared_runners_minutes_limit: null });
      expect(res.body.deploy_keys_projects).toEqual([
        {
          id: expect.any(Number),
          deploy_key_id: deployKey.id,
          project_id: app.project.id,
          created_at: expect.any(String),
          updated_at: expect.any(String),
          can_push: true,
        },
      ]);
      expect((await lookUp(md5)).body).toEqual(res.body);
    });

    it('answers GitLab’s 400 for a malformed fingerprint and 404 for an unknown one', async () => {
      for (const malformed of ['abc', 'SHA256:short', 'MD5:aa:bb', `SHA256:${'a'.repeat(20)} ${'b'.repeat(22)}`]) {
        const res = await lookUp(malformed);
        expect(res.status, malformed).toBe(400);
        expect(res.body).toEqual({ message: 'Failed to return the key' });
      }
      const unknown = await lookUp('00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee:ff');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ message: '404 Key Not Found' });
      // MD5 fingerprints compare exactly: upper case finds nothing.
      expect((await lookUp(fingerprintsOf(userKey.text).md5.toUpperCase())).status).toBe(404);
    });

    it('checks the parameter, then who is asking', async () => {
      expect((await app.get('/api/v4/keys', { token: 'maintainer' })).body).toEqual({ error: 'fingerprint is missing' });
      const denied = await lookUp(fingerprintsOf(userKey.text).md5, 'maintainer');
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual({ message: '403 Forbidden' });
      expect((await app.get('/api/v4/keys', { query: { fingerprint: 'x' } })).status).toBe(401);
    });

    it('answers a deploy key whose creator is gone with a null user', async () => {
      const creator = await app.post(
        '/api/v4/users',
        { username: 'creator', name: 'Creator', email: 'creator@example.com', password: 'secret-password', admin: true },
        { token: 'admin' },
      );
      const token = await app.post(`/api/v4/users/${creator.body.id}/personal_access_tokens`, { name: 'api', scopes: ['api'] }, { token: 'admin' });
      const text = newSshKey();
      const made = await app.post(`/api/v4/projects/${app.project.id}/deploy_keys`, { title: 'Orphan creator', key: text }, { token: token.body.token });
      expect(made.status).toBe(201);
      expect((await app.delete(`/api/v4/users/${creator.body.id}`, { token: 'admin' })).status).toBe(204);
      const res = await lookUp(fingerprintsOf(text).sha256);
      expect(res.status).toBe(200);
      expect(res.body.user).toBeNull();
      expect(res.body.deploy_keys_projects).toHaveLength(1);
    });
  });
});
