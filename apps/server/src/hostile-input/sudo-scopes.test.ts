import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { coreTokensRef } from '@forgekit/plugin-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allPlugins } from '../plugins.js';

/** An admin token with `sudo` still needs the route's own scope: sudo lets it act as another user, nothing more. */
describe('sudo and token scopes', () => {
  let app: TestApp;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    app = await createTestApp({ plugins: allPlugins });
    const service = app.kernel.resolve(coreTokensRef);
    for (const [name, scopes] of Object.entries({ readSudo: ['read_api', 'sudo'], onlySudo: ['sudo'], apiSudo: ['api', 'sudo'] })) {
      tokens[name] = (await service.create({ userId: app.users.admin.id, name, scopes })).secret;
    }
  });
  afterAll(() => app.close());

  const counts = async () => ({
    projects: (await app.get('/api/v4/projects', { token: 'admin', query: { per_page: 1 } })).headers.get('x-total'),
    users: (await app.get('/api/v4/users', { token: 'admin', query: { per_page: 1 } })).headers.get('x-total'),
    tokens: (await app.get('/api/v4/personal_access_tokens', { token: 'admin', query: { per_page: 1 } })).headers.get('x-total'),
  });

  it.each(['readSudo', 'onlySudo'])('a %s token cannot create projects, users or api tokens as root', async (name) => {
    const before = await counts();
    const headers = { Sudo: 'root' };
    const writes = [
      await app.post('/api/v4/projects', { name: `sudo-${name}` }, { token: tokens[name], headers }),
      await app.post(
        '/api/v4/users',
        { username: `sudo-${name}`, name: 'x', email: `sudo-${name}@example.com`, password: 'password1234' },
        { token: tokens[name], headers },
      ),
      await app.post(`/api/v4/users/${app.users.admin.id}/personal_access_tokens`, { name: 'escalated', scopes: ['api'] }, { token: tokens[name], headers }),
    ];
    for (const res of writes) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: 'insufficient_scope', scope: 'api' });
    }
    expect(await counts()).toEqual(before);
  });

  it('a read_api token with sudo reads as the user it names', async () => {
    const res = await app.get('/api/v4/user', { token: tokens.readSudo, headers: { Sudo: app.users.developer.username } });
    expect(res.status).toBe(200);
    expect(res.body.username).toBe(app.users.developer.username);
  });

  it('an api token with sudo writes as the user it names', async () => {
    const res = await app.post('/api/v4/projects', { name: 'made-by-sudo' }, { token: tokens.apiSudo, headers: { Sudo: app.users.developer.username } });
    expect(res.status).toBe(201);
    expect(res.body.creator_id).toBe(app.users.developer.id);
  });
});
