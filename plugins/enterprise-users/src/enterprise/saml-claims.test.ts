import { kernelServices } from '@forgekit/kernel';
import { createPagesDomainsPlugin } from '@forgekit/plugin-pages-domains';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { samlPlugin } from '@forgekit/plugin-saml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnterpriseClaimEntity } from '../entities/enterprise-claim.js';
import { enterpriseUsersPlugin } from '../plugin.js';

const FINGERPRINT = 'ab'.repeat(20);

describe('enterprise users provisioned through group SAML', () => {
  let app: TestApp;
  let serial = 0;
  let otherGroup: { id: number };
  const enterpriseUsers = (groupId: number) => `/api/v4/groups/${groupId}/enterprise_users`;

  async function newUser(extra: Record<string, unknown> = {}) {
    serial += 1;
    const res = await app.post(
      '/api/v4/users',
      {
        username: `saml-person-${serial}`,
        name: `SAML Person ${serial}`,
        email: `person-${serial}@unverified.example`,
        password: 'secret-password-1',
        ...extra,
      },
      { token: 'admin' },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: number };
  }
  const claimOf = (userId: number) =>
    app.kernel.resolve(kernelServices.database).row(app.kernel.resolve(kernelServices.database).from(EnterpriseClaimEntity).where('userId', userId));

  beforeAll(async () => {
    app = await createTestApp({ plugins: [createPagesDomainsPlugin({ resolveTxt: async () => [] }), enterpriseUsersPlugin, samlPlugin] });
    otherGroup = (await app.post('/api/v4/groups', { name: 'Other Co', path: 'other-co' }, { token: 'admin' })).body;
    for (const groupId of [app.group.id, otherGroup.id]) {
      const provider = await app.put(
        `/api/v4/groups/${groupId}/saml_provider`,
        { sso_url: 'https://idp.example.com/sso', certificate_fingerprint: FINGERPRINT },
        { token: 'admin' },
      );
      expect(provider.status).toBe(200);
    }
  });
  afterAll(() => app?.close());

  it('claims a user created with a group_saml identity, with why and when, whatever the email domain', async () => {
    const before = new Date();
    const user = await newUser({ provider: 'group_saml', extern_uid: 'uid-created', group_id_for_saml: app.group.id });
    const list = await app.get(enterpriseUsers(app.group.id), { token: 'owner' });
    expect(list.status).toBe(200);
    expect(list.body.map((entry: { id: number }) => entry.id)).toContain(user.id);
    expect(await claimOf(user.id)).toMatchObject({ groupId: app.group.id, reason: 'group_saml', domain: null });
    expect((await claimOf(user.id))!.claimedAt.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
  });

  it('claims a user an administrator links with PUT /users/:id', async () => {
    const user = await newUser();
    expect((await app.get(`${enterpriseUsers(app.group.id)}/${user.id}`, { token: 'owner' })).status).toBe(404);
    const linked = await app.put(
      `/api/v4/users/${user.id}`,
      { provider: 'group_saml', extern_uid: 'uid-linked', group_id_for_saml: app.group.id },
      { token: 'admin' },
    );
    expect(linked.status).toBe(200);
    expect(await app.get(`${enterpriseUsers(app.group.id)}/${user.id}`, { token: 'owner' })).toMatchObject({ status: 200, body: { id: user.id } });
  });

  it('claims a user at their first sign-in through the provider', async () => {
    const user = await newUser();
    const signIn = await app.post(`/api/v4/groups/${otherGroup.id}/saml/identities`, { user_id: user.id, extern_uid: 'uid-signed-in' }, { token: 'admin' });
    expect(signIn.status).toBe(201);
    expect(await app.get(`${enterpriseUsers(otherGroup.id)}/${user.id}`, { token: 'admin' })).toMatchObject({ status: 200, body: { id: user.id } });
    expect(await claimOf(user.id)).toMatchObject({ groupId: otherGroup.id, reason: 'group_saml' });
  });

  it('leaves a user another group claimed first where they are: one enterprise group per user', async () => {
    const user = await newUser({ provider: 'group_saml', extern_uid: 'uid-first', group_id_for_saml: app.group.id });
    const signIn = await app.post(`/api/v4/groups/${otherGroup.id}/saml/identities`, { user_id: user.id, extern_uid: 'uid-second' }, { token: 'admin' });
    expect(signIn.status).toBe(201);
    expect(await claimOf(user.id)).toMatchObject({ groupId: app.group.id });
    expect(await app.get(`${enterpriseUsers(otherGroup.id)}/${user.id}`, { token: 'admin' })).toMatchObject({
      status: 404,
      body: { message: '404 Not found' },
    });
  });

  it('claims no one when the identity is refused', async () => {
    const holder = await newUser({ provider: 'group_saml', extern_uid: 'uid-taken', group_id_for_saml: otherGroup.id });
    const user = await newUser();
    const refused = await app.post(`/api/v4/groups/${app.group.id}/saml/identities`, { user_id: user.id, extern_uid: 'uid-created' }, { token: 'admin' });
    expect(refused).toMatchObject({ status: 400, body: { message: 'Extern uid has already been taken' } });
    expect(await claimOf(user.id)).toBeUndefined();
    expect(await claimOf(holder.id)).toMatchObject({ groupId: otherGroup.id });
  });
});
