import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@forgekit/kernel';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { ensureRootToken } from './bootstrap.js';
import { corePlugin } from './plugin.js';
import { coreTokensRef, coreUsersRef } from './contracts.js';
import { UserEntity } from './entities/user.js';

const ROOT_TOKEN = 'fkpat-bootstrap-secret-0123456789';

describe('root token bootstrap', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp({ config: { plugins: { core: { rootToken: ROOT_TOKEN } } } });
  });
  afterAll(() => app?.close());

  it('creates root, an administrator, whose token is the configured secret', async () => {
    const res = await app.get('/api/v4/user', { token: ROOT_TOKEN });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ username: 'root', name: 'Administrator', is_admin: true, state: 'active' });
  });

  it('gives the root token every scope, sudo included', async () => {
    const res = await app.get('/api/v4/user', { token: ROOT_TOKEN, headers: { Sudo: 'guest' } });
    expect(res.body.username).toBe('guest');
    const self = await app.get('/api/v4/personal_access_tokens/self', { token: ROOT_TOKEN });
    expect(self.body.scopes).toContain('sudo');
    expect(self.body.scopes).toContain('admin_mode');
  });

  it('does nothing the second time', async () => {
    const users = app.kernel.resolve(coreUsersRef);
    expect(await ensureRootToken(users, app.kernel.resolve(coreTokensRef), ROOT_TOKEN)).toBe(false);
    const roots = await app.kernel.database.rows(app.kernel.database.table(UserEntity).select('id').where('username', 'root'));
    expect(roots).toHaveLength(1);
  });

  it('refuses a secret that is another user token', async () => {
    const { secret } = await app.kernel.resolve(coreTokensRef).create({ userId: app.users.guest.id, name: 'mine', scopes: ['api'] });
    await expect(ensureRootToken(app.kernel.resolve(coreUsersRef), app.kernel.resolve(coreTokensRef), secret)).rejects.toThrow(
      'The root token is already in use by another user',
    );
  });

  it('reads the secret from FORGEKIT_ROOT_TOKEN', () => {
    const config = loadConfig({ env: { FORGEKIT_ROOT_TOKEN: ROOT_TOKEN }, plugins: [corePlugin] });
    expect(config.plugins).toEqual({ core: { rootToken: ROOT_TOKEN } });
  });

  it('refuses a short secret at boot', async () => {
    await expect(createTestApp({ seed: false, config: { plugins: { core: { rootToken: 'short' } } } })).rejects.toThrow(
      'rootToken must be at least 16 characters',
    );
  });
});
