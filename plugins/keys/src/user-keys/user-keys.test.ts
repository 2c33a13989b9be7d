import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { keyEvents, type KeyEvent } from '../contracts.js';
import { keysPlugin } from '../plugin.js';
import { newSecurityKey, newSshKey } from '../testing/test-keys.js';

const SSH_KEY_FIELDS = ['id', 'title', 'created_at', 'expires_at', 'last_used_at', 'key', 'usage_type'];
const ANY_TYPE = 'type is forbidden. Must be RSA, DSA, ECDSA, ED25519, ECDSA_SK, or ED25519_SK';

describe('user SSH keys', () => {
  let app: TestApp;
  const created: KeyEvent[] = [];
  const destroyed: KeyEvent[] = [];
  const add = (body: Record<string, unknown>, token = 'developer') => app.post('/api/v4/user/keys', body, { token });

  beforeAll(async () => {
    app = await createTestApp({ plugins: [keysPlugin] });
    app.kernel.events.on(keyEvents.keyCreated, (event) => void created.push(event));
    app.kernel.events.on(keyEvents.keyDestroyed, (event) => void destroyed.push(event));
  });
  afterAll(() => app?.close());

  describe('POST /user/keys', () => {
    it('adds a key: SSHKey with the comment replaced by the owner and host, auth_and_signing by default', async () => {
      const key = newSshKey('ed25519', undefined, 'private@example.com');
      const res = await add({ title: 'Laptop', key });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(SSH_KEY_FIELDS);
      const [type, blob] = key.split(' ');
      expect(res.body).toMatchObject({ title: 'Laptop', expires_at: null, last_used_at: null, usage_type: 'auth_and_signing' });
      expect(res.body.key).toBe(`${type} ${blob} ${app.users.developer.name} (localhost)`);
      expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
      expect(created.at(-1)).toMatchObject({
        keyId: res.body.id,
        kind: 'user',
        userId: app.users.developer.id,
        username: app.users.developer.username,
        title: 'Laptop',
      });
    });

    it('takes expires_at and usage_type, as a form too', async () => {
      const expires = new Date(Date.now() + 86_400_000).toISOString();
      const res = await app.post(
        '/api/v4/user/keys',
        { title: 'Signing', key: newSshKey('ecdsa', 384), expires_at: expires, usage_type: 'signing' },
        { token: 'developer', as: 'form' },
      );
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ expires_at: expires, usage_type: 'signing' });
    });

    it('takes RSA, DSA, ECDSA and security keys of supported sizes', async () => {
      for (const key of [newSshKey('rsa', 2048), newSshKey('dsa', 1024), newSshKey('ecdsa', 521), newSecurityKey()]) {
        const res = await add({ title: 'Kind', key }, 'reporter');
        expect(res.status, key.split(' ')[0]).toBe(201);
      }
    });

    it('validates the parameters with Grape texts', async () => {
      expect((await add({})).body).toEqual({ error: 'key is missing, title is missing' });
      const res = await add({ title: 't', key: newSshKey(), usage_type: 'everything' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'usage_type does not have a valid value' });
    });

    it('refuses a key that does not parse, with every GitLab error', async () => {
      const res = await add({ title: '', key: 'ssh-rsa AAAAB3NzaC1yc2E' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { title: ["can't be blank"], key: [ANY_TYPE], fingerprint_sha256: ['cannot be generated'] } });
      const text = await add({ title: 't', key: 'my key' });
      expect(text.body).toEqual({ message: { key: [ANY_TYPE, 'is invalid'], fingerprint_sha256: ['cannot be generated'] } });
    });

    it('refuses an RSA key of a size GitLab does not support', async () => {
      const res = await add({ title: 't', key: newSshKey('rsa', 1536) });
      expect(res.body).toEqual({ message: { fingerprint_sha256: ['cannot be generated'] } });
    });

    it('refuses a key someone already has, and keeps the first', async () => {
      const key = newSshKey();
      expect((await add({ title: 'Mine', key }, 'maintainer')).status).toBe(201);
      const again = await add({ title: 'Mine too', key: key.replace('someone@example.com', 'other comment') });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ message: { fingerprint_sha256: ['has already been taken'] } });
      const list = await app.get('/api/v4/user/keys', { token: 'maintainer' });
      expect(list.body.map((k: { title: string }) => k.title)).toContain('Mine');
    });

    it('refuses an expired key, a long title and a key past 5000 characters', async () => {
      const res = await add({ title: 'x'.repeat(256), key: newSshKey(), expires_at: '2020-01-01T00:00:00Z' });
      expect(res.body).toEqual({ message: { title: ['is too long (maximum is 255 characters)'], key: ['has expired'] } });
      const long = await add({ title: 't', key: `ssh-ed25519 ${'A'.repeat(5000)}` });
      expect(long.body.message.key).toContain('is too long (maximum is 5000 characters)');
    });

    it('applies the instance key restrictions from the application settings', async () => {
      const settings = await app.put('/api/v4/application/settings', { rsa_key_restriction: 3072, dsa_key_restriction: -1 }, { token: 'admin' });
      expect(settings.status).toBe(200);
      expect(settings.body).toMatchObject({ rsa_key_restriction: 3072, dsa_key_restriction: -1, ed25519_key_restriction: 0 });
      try {
        expect((await add({ title: 't', key: newSshKey('rsa', 2048) })).body).toEqual({ message: { key: ['must be at least 3072 bits'] } });
        expect((await add({ title: 't', key: newSshKey('dsa', 1024) })).body).toEqual({
          message: { key: ['type is forbidden. Must be RSA, ECDSA, ED25519, ECDSA_SK, or ED25519_SK'] },
        });
        const bad = await app.put('/api/v4/application/settings', { rsa_key_restriction: 1000 }, { token: 'admin' });
        expect(bad.status).toBe(400);
        expect(bad.body).toEqual({ error: 'rsa_key_restriction does not have a valid value' });
      } finally {
        await app.put('/api/v4/application/settings', { rsa_key_restriction: 0, dsa_key_restriction: 0 }, { token: 'admin' });
      }
    });

    it('needs a signed-in caller', async () => {
      const res = await app.post('/api/v4/user/keys', { title: 't', key: newSshKey() });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: '401 Unauthorized' });
    });
  });

  describe('GET /user/keys', () => {
    it('lists the caller’s keys, paginated, and only theirs', async () => {
      const res = await app.get('/api/v4/user/keys', { token: 'reporter', query: { per_page: 2 } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total')).toBe('4');
      expect(res.headers.get('x-next-page')).toBe('2');
      expect(res.body).toHaveLength(2);
      expect(res.body.every((key: { title: string }) => key.title === 'Kind')).toBe(true);
      expect((await app.get('/api/v4/user/keys', { token: 'guest' })).body).toEqual([]);
    });

    it('gets one of them, and 404 for a key of someone else', async () => {
      const mine = (await add({ title: 'One', key: newSshKey() }, 'guest')).body;
      const res = await app.get(`/api/v4/user/keys/${mine.id}`, { token: 'guest' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(mine);
      const other = await app.get(`/api/v4/user/keys/${mine.id}`, { token: 'reporter' });
      expect(other.status).toBe(404);
      expect(other.body).toEqual({ message: '404 Key Not Found' });
      expect((await app.get('/api/v4/user/keys/abc', { token: 'guest' })).body).toEqual({ error: 'key_id is invalid' });
      expect((await app.get('/api/v4/user/keys/2147483648', { token: 'guest' })).status).toBe(404);
    });
  });

  describe('DELETE /user/keys/:key_id', () => {
    it('removes the key, honours If-Unmodified-Since, and 404s after', async () => {
      const key = (await add({ title: 'Gone', key: newSshKey() }, 'guest')).body;
      const stale = await app.delete(`/api/v4/user/keys/${key.id}`, { token: 'guest', headers: { 'If-Unmodified-Since': 'Mon, 01 Jan 2001 00:00:00 GMT' } });
      expect(stale.status).toBe(412);
      expect((await app.delete(`/api/v4/user/keys/${key.id}`, { token: 'reporter' })).status).toBe(404);
      const res = await app.delete(`/api/v4/user/keys/${key.id}`, { token: 'guest' });
      expect(res.status).toBe(204);
      expect(destroyed.at(-1)).toMatchObject({ keyId: key.id, kind: 'user', userId: app.users.guest.id });
      const again = await app.delete(`/api/v4/user/keys/${key.id}`, { token: 'guest' });
      expect(again.body).toEqual({ message: '404 Key Not Found' });
    });
  });

  describe('/users/:id/keys', () => {
    it('lists anyone’s keys to anyone, by id or username', async () => {
      const byId = await app.get(`/api/v4/users/${app.users.reporter.id}/keys`);
      expect(byId.status).toBe(200);
      expect(byId.headers.get('x-total')).toBe('4');
      const byName = await app.get(`/api/v4/users/${app.users.reporter.username}/keys`, { token: 'guest' });
      expect(byName.body).toEqual(byId.body);
      const missing = await app.get('/api/v4/users/no-such-user/keys');
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 User Not Found' });
    });

    it('gets one key of a user', async () => {
      const [first] = (await app.get(`/api/v4/users/${app.users.reporter.id}/keys`)).body;
      expect((await app.get(`/api/v4/users/${app.users.reporter.id}/keys/${first.id}`)).body).toEqual(first);
      const wrongUser = await app.get(`/api/v4/users/${app.users.guest.id}/keys/${first.id}`);
      expect(wrongUser.body).toEqual({ message: '404 Key Not Found' });
      expect((await app.get(`/api/v4/users/999999/keys/${first.id}`)).body).toEqual({ message: '404 User Not Found' });
    });

    it('lets administrators add and remove a user’s keys', async () => {
      const res = await app.post(`/api/v4/users/${app.users.nonMember.id}/keys`, { title: 'Given', key: newSshKey() }, { token: 'admin' });
      expect(res.status).toBe(201);
      expect(res.body.key).toContain(`${app.users.nonMember.name} (localhost)`);
      expect(created.at(-1)).toMatchObject({ userId: app.users.nonMember.id });
      expect((await app.get('/api/v4/user/keys', { token: 'nonMember' })).body.map((key: { id: number }) => key.id)).toEqual([res.body.id]);

      const unknown = await app.post('/api/v4/users/999999/keys', { title: 'x', key: newSshKey() }, { token: 'admin' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ message: '404 User Not Found' });
      expect((await app.delete(`/api/v4/users/${app.users.guest.id}/keys/${res.body.id}`, { token: 'admin' })).body).toEqual({ message: '404 Key Not Found' });
      expect((await app.delete(`/api/v4/users/${app.users.nonMember.id}/keys/${res.body.id}`, { token: 'admin' })).status).toBe(204);
      expect((await app.get('/api/v4/user/keys', { token: 'nonMember' })).body).toEqual([]);
    });

    it('refuses non-administrators the writes', async () => {
      const post = await app.post(`/api/v4/users/${app.users.guest.id}/keys`, { title: 'x', key: newSshKey() }, { token: 'guest' });
      expect(post.status).toBe(403);
      expect(post.body).toEqual({ message: '403 Forbidden' });
      const [key] = (await app.get('/api/v4/user/keys', { token: 'reporter' })).body;
      expect((await app.delete(`/api/v4/users/${app.users.reporter.id}/keys/${key.id}`, { token: 'reporter' })).status).toBe(403);
    });
  });

  it('removes a deleted user’s keys', async () => {
    const user = await app.post(
      '/api/v4/users',
      { username: 'leaving', name: 'Leaving', email: 'leaving@example.com', password: 'secret-password' },
      { token: 'admin' },
    );
    const key = await app.post(`/api/v4/users/${user.body.id}/keys`, { title: 'Theirs', key: newSshKey() }, { token: 'admin' });
    expect((await app.delete(`/api/v4/users/${user.body.id}`, { token: 'admin' })).status).toBe(204);
    expect(destroyed.at(-1)).toMatchObject({ keyId: key.body.id, userId: user.body.id });
    // The key is gone: the same key may be added again.
    const [type, blob] = key.body.key.split(' ');
    expect((await add({ title: 'Reused', key: `${type} ${blob}` }, 'guest')).status).toBe(201);
  });
});
