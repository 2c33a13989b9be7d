import { createPagesDomainsPlugin } from '@forgekit/plugin-pages-domains';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterpriseUsersPlugin } from '../plugin.js';

const dns = new Map<string, string[][]>();
const resolveTxt = async (name: string) => dns.get(name) ?? [];

describe('enterprise users', () => {
  let app: TestApp;
  let base: string;
  let serial = 0;
  let alice: { id: number; token: string };
  let bob: { id: number; token: string };
  let carol: { id: number; token: string };

  async function newUser(email: string) {
    serial += 1;
    const username = `person-${serial}`;
    const user = (await app.post('/api/v4/users', { username, name: `Person ${serial}`, email, password: 'secret-password-1' }, { token: 'admin' })).body;
    const token = (await app.post(`/api/v4/users/${user.id}/personal_access_tokens`, { name: 'api', scopes: ['api'] }, { token: 'admin' })).body
      .token as string;
    return { id: user.id as number, token };
  }
  const ids = (body: { id: number }[]) => body.map((user) => user.id);

  beforeAll(async () => {
    app = await createTestApp({ plugins: [createPagesDomainsPlugin({ resolveTxt }), enterpriseUsersPlugin] });
    base = `/api/v4/groups/${app.group.id}/enterprise_users`;
    alice = await newUser('alice@acme.example');
    carol = await newUser('carol@elsewhere.example');
    const domain = (await app.post(`/api/v4/projects/${app.project.id}/pages/domains`, { domain: 'acme.example' }, { token: 'maintainer' })).body;
    dns.set('_service-pages-verification-code.acme.example', [[domain.verification_code]]);
    expect((await app.put(`/api/v4/projects/${app.project.id}/pages/domains/acme.example/verify`, {}, { token: 'maintainer' })).status).toBe(200);
    bob = await newUser('bob@ACME.example');
  });
  afterAll(() => app?.close());

  describe('GET /groups/:id/enterprise_users', () => {
    it("lists the users on the group's verified domains, newest first, though they are not members", async () => {
      const res = await app.get(base, { token: 'owner' });
      expect(res.status).toBe(200);
      expect(ids(res.body)).toEqual([bob.id, alice.id]);
      expect(res.headers.get('x-total')).toBe('2');
      expect(res.body[1]).toMatchObject({ id: alice.id, email: 'alice@acme.example', two_factor_enabled: false, scim_identities: [], identities: [] });
    });

    it('filters by username, search, state, creation time and two-factor', async () => {
      const username = (await app.get(`/api/v4/users/${alice.id}`, { token: 'admin' })).body.username;
      expect(ids((await app.get(base, { token: 'owner', query: { username } })).body)).toEqual([alice.id]);
      expect(ids((await app.get(base, { token: 'owner', query: { search: 'BOB@' } })).body)).toEqual([bob.id]);
      expect(ids((await app.get(base, { token: 'owner', query: { active: true } })).body)).toEqual([bob.id, alice.id]);
      expect((await app.get(base, { token: 'owner', query: { blocked: true } })).body).toEqual([]);
      expect((await app.get(base, { token: 'owner', query: { created_after: '2999-01-01T00:00:00Z' } })).body).toEqual([]);
      expect(ids((await app.get(base, { token: 'owner', query: { two_factor: 'disabled' } })).body)).toEqual([bob.id, alice.id]);
      expect(await app.get(base, { token: 'owner', query: { two_factor: 'maybe' } })).toMatchObject({
        status: 400,
        body: { error: 'two_factor does not have a valid value' },
      });
    });

    it("checks in GitLab's order: 401, 404 group, 400 subgroup, 403 below Owner", async () => {
      expect(await app.get(base, { token: null })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
      expect(await app.get('/api/v4/groups/999999/enterprise_users', { token: 'owner' })).toMatchObject({
        status: 404,
        body: { message: '404 Group Not Found' },
      });
      const sub = (await app.post('/api/v4/groups', { name: 'Sub', path: 'sub', parent_id: app.group.id }, { token: 'owner' })).body;
      expect(await app.get(`/api/v4/groups/${sub.id}/enterprise_users`, { token: 'maintainer' })).toMatchObject({
        status: 400,
        body: { message: '400 Bad request - Must be a top-level group' },
      });
      expect(await app.get(base, { token: 'maintainer' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      expect((await app.get(base, { token: 'admin' })).status).toBe(200);
    });
  });

  describe('GET /groups/:id/enterprise_users/:user_id', () => {
    it('shows an enterprise user, and 404 Not found for anyone else', async () => {
      expect((await app.get(`${base}/${alice.id}`, { token: 'owner' })).body).toMatchObject({ id: alice.id, email: 'alice@acme.example' });
      expect(await app.get(`${base}/${carol.id}`, { token: 'owner' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
      expect((await app.get(`${base}/${app.users.owner.id}`, { token: 'owner' })).status).toBe(404);
    });
  });

  describe('PATCH /groups/:id/enterprise_users/:user_id', () => {
    it('changes the name and an email on a verified domain at once', async () => {
      const res = await app.request('PATCH', `${base}/${alice.id}`, { token: 'owner', body: { name: 'Alice A', email: 'alice.a@acme.example' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: 'Alice A', email: 'alice.a@acme.example' });
      expect((await app.get(`/api/v4/users/${alice.id}`, { token: 'admin' })).body.email).toBe('alice.a@acme.example');
      expect((await app.request('PATCH', `${base}/${alice.id}`, { token: 'owner', body: {} })).body.name).toBe('Alice A');
    });

    it("refuses emails off the group's domains, malformed or taken, with plain messages", async () => {
      const patch = (email: string) => app.request('PATCH', `${base}/${alice.id}`, { token: 'owner', body: { email } });
      expect(await patch('alice@elsewhere.example')).toMatchObject({ status: 400, body: { message: "Email must be owned by the user's enterprise group" } });
      expect(await patch('al ice@acme.example')).toMatchObject({
        status: 400,
        body: { message: "Email is invalid. Email must be owned by the user's enterprise group" },
      });
      expect(await patch('bob@acme.example')).toMatchObject({ status: 400, body: { message: 'Email has already been taken' } });
      expect((await app.request('PATCH', `${base}/${alice.id}`, { token: 'maintainer', body: { name: 'x' } })).status).toBe(403);
    });
  });

  describe('two-factor', () => {
    let secret: string;

    it('enrols through /user/two_factor with an authenticator code', async () => {
      const begun = await app.post('/api/v4/user/two_factor', {}, { token: alice.token });
      expect(begun.status).toBe(201);
      secret = begun.body.secret;
      expect(begun.body.provisioning_uri).toMatch(/^otpauth:\/\/totp\//);
      expect(await app.post('/api/v4/user/two_factor/activate', { otp_attempt: '000000' }, { token: alice.token })).toMatchObject({
        status: 400,
        body: { message: '400 Bad request - Invalid two-factor code' },
      });
      const activated = await app.post('/api/v4/user/two_factor/activate', { otp_attempt: await generate({ secret }) }, { token: alice.token });
      expect(activated).toMatchObject({ status: 201, body: { enabled: true, pending: false } });
      expect((await app.get('/api/v4/user', { token: alice.token })).body.two_factor_enabled).toBe(true);
      expect(ids((await app.get(base, { token: 'owner', query: { two_factor: 'enabled' } })).body)).toEqual([alice.id]);
    });

    it('lets an Owner disable it: 204, then 400 as it is off', async () => {
      expect((await app.request('PATCH', `${base}/${alice.id}/disable_two_factor`, { token: 'maintainer' })).status).toBe(403);
      expect((await app.request('PATCH', `${base}/${alice.id}/disable_two_factor`, { token: 'owner' })).status).toBe(204);
      expect((await app.get('/api/v4/user/two_factor', { token: alice.token })).body).toEqual({ enabled: false, pending: false });
      expect(await app.request('PATCH', `${base}/${alice.id}/disable_two_factor`, { token: 'owner' })).toMatchObject({
        status: 400,
        body: { message: '400 Bad request - Two-factor authentication is not enabled for this user' },
      });
    });

    it('lets the user turn it off with a current code', async () => {
      const { secret: next } = (await app.post('/api/v4/user/two_factor', {}, { token: bob.token })).body;
      await app.post('/api/v4/user/two_factor/activate', { otp_attempt: await generate({ secret: next }) }, { token: bob.token });
      expect(await app.post('/api/v4/user/two_factor', {}, { token: bob.token })).toMatchObject({ status: 400 });
      expect(
        (await app.request('DELETE', '/api/v4/user/two_factor', { token: bob.token, body: { otp_attempt: await generate({ secret: next }) } })).status,
      ).toBe(204);
    });
  });

  describe('DELETE /groups/:id/enterprise_users/:user_id', () => {
    it('keeps a sole group owner unless hard_delete, which takes their groups too', async () => {
      const group = (await app.post('/api/v4/groups', { name: 'Bobs', path: 'bobs' }, { token: bob.token })).body;
      expect(await app.delete(`${base}/${bob.id}`, { token: 'owner' })).toMatchObject({
        status: 409,
        body: { message: 'Can not remove a user who is the sole owner of a group.' },
      });
      expect((await app.request('DELETE', `${base}/${bob.id}`, { token: 'owner', query: { hard_delete: true } })).status).toBe(204);
      expect((await app.get(`/api/v4/users/${bob.id}`, { token: 'admin' })).status).toBe(404);
      expect((await app.get(`/api/v4/groups/${group.id}`, { token: 'admin' })).status).toBe(404);
    });

    it('honours If-Unmodified-Since, then deletes', async () => {
      const stale = await app.request('DELETE', `${base}/${alice.id}`, { token: 'owner', headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' } });
      expect(stale.status).toBe(412);
      expect((await app.delete(`${base}/${alice.id}`, { token: 'maintainer' })).status).toBe(403);
      expect((await app.delete(`${base}/${alice.id}`, { token: 'owner' })).status).toBe(204);
      expect((await app.get(base, { token: 'owner' })).body).toEqual([]);
    });
  });
});
