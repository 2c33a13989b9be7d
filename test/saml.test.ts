import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';

/**
 * Group SAML through real clients: an Owner configures the provider (plain requests, it is an
 * extension), manages SAML group links with @gitbeaker/rest, an administrator records a sign-in
 * with SAML groups, and the user gets the mapped membership and becomes the group's enterprise
 * user; the Owner edits the identity.
 */
describe('group SAML through @gitbeaker/rest', () => {
  let server: ListeningServer;
  let admin: Api;
  let alice: UserWithToken;
  let bob: UserWithToken;
  let groupId: number;

  const call = (method: string, path: string, token: string, body?: unknown) =>
    fetch(`${server.url}/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    server = await startListeningServer();
    admin = clientFor(server, server.rootToken);
    alice = await createUserWithToken(admin, server, 'alice');
    bob = await createUserWithToken(admin, server, 'bob');
    groupId = (await alice.api.Groups.create('Corp', 'corp')).id as number;
  });
  afterAll(() => server?.close());

  it('a group without a provider answers 400 for identities and 401 for links', async () => {
    expect(await failureOf(alice.api.GroupSAMLIdentities.all(groupId, {}))).toEqual({ status: 400, description: '400 Bad request' });
    expect((await failureOf(alice.api.GroupSAMLLinks.all(groupId, {}))).status).toBe(401);
  });

  it('configures SAML, links a SAML group, and a sign-in gets the mapped membership', async () => {
    const configured = await call('PUT', `/groups/${groupId}/saml_provider`, alice.token, {
      sso_url: 'https://idp.example.com/saml',
      certificate_fingerprint: '0123456789abcdef0123456789abcdef01234567',
      default_membership_role: 10,
    });
    expect(configured.status).toBe(200);
    expect(await configured.json()).toMatchObject({ group_id: groupId, enabled: true, default_membership_role: 10 });

    const link = await alice.api.GroupSAMLLinks.create(groupId, 'engineering', 30);
    expect(link).toEqual({ name: 'engineering', access_level: 30, member_role_id: null, provider: null });
    expect(await alice.api.GroupSAMLLinks.all(groupId, {})).toEqual([link]);
    expect(await alice.api.GroupSAMLLinks.show(groupId, 'engineering', {})).toEqual(link);

    const signIn = await call('POST', `/groups/${groupId}/saml/identities`, server.rootToken, {
      user_id: bob.id,
      extern_uid: 'bob@idp',
      saml_groups: ['engineering'],
    });
    expect(signIn.status).toBe(201);
    expect(await alice.api.GroupMembers.show(groupId, bob.id)).toMatchObject({ username: 'bob', access_level: 30 });
    expect(await alice.api.GroupSAMLIdentities.all(groupId, {})).toEqual([{ extern_uid: 'bob@idp', user_id: bob.id }]);
    expect((await admin.Users.show(bob.id)).identities).toEqual([{ provider: 'group_saml', extern_uid: 'bob@idp', saml_provider_id: expect.any(Number) }]);
    // The group's SAML provisioned bob: he is its enterprise user.
    const enterprise = await call('GET', `/groups/${groupId}/enterprise_users`, alice.token);
    expect(enterprise.status).toBe(200);
    expect(((await enterprise.json()) as { id: number }[]).map((user) => user.id)).toEqual([bob.id]);

    await alice.api.GroupSAMLIdentities.edit(groupId, 'bob@idp', { externUid: 'bob.b@idp' } as never);
    expect(await alice.api.GroupSAMLIdentities.all(groupId, {})).toEqual([{ extern_uid: 'bob.b@idp', user_id: bob.id }]);

    expect((await failureOf(bob.api.GroupSAMLLinks.all(groupId, {}))).status).toBe(401);
    await alice.api.GroupSAMLLinks.remove(groupId, 'engineering');
    expect(await alice.api.GroupSAMLLinks.all(groupId, {})).toEqual([]);
  });
});
