import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';
import { rest } from './support/rest.js';

/** An Owner reads the SAML provider and one identity, an enterprise user, and removes the identity and the provider. */
describe('group SAML provider and identities with plain requests', () => {
  let server: ListeningServer;
  let admin: Api;
  let owner: UserWithToken;
  let member: UserWithToken;
  let groupId: number;
  const call = (method: string, path: string, token: string | null, body?: unknown) => rest(server, method, path, token, body);

  beforeAll(async () => {
    server = await startListeningServer();
    admin = clientFor(server, server.rootToken);
    owner = await createUserWithToken(admin, server, 'owner');
    member = await createUserWithToken(admin, server, 'member');
    groupId = (await owner.api.Groups.create('Corp', 'corp')).id as number;
    await call('PUT', `/groups/${groupId}/saml_provider`, owner.token, {
      sso_url: 'https://idp.example.com/saml',
      certificate_fingerprint: '0123456789abcdef0123456789abcdef01234567',
      default_membership_role: 10,
    });
    await call('POST', `/groups/${groupId}/saml/identities`, server.rootToken, { user_id: member.id, extern_uid: 'member@idp' });
  });
  afterAll(() => server?.close());

  it('shows the provider and one identity to the Owner', async () => {
    const provider = await call('GET', `/groups/${groupId}/saml_provider`, owner.token);
    expect(provider.body).toMatchObject({ group_id: groupId, enabled: true, sso_url: 'https://idp.example.com/saml', default_membership_role: 10 });
    expect((await call('GET', `/groups/${groupId}/saml/member@idp`, owner.token)).body).toEqual({ extern_uid: 'member@idp', user_id: member.id });
    expect((await call('GET', `/groups/${groupId}/saml/nobody@idp`, owner.token)).status).toBe(404);
  });

  it('shows the enterprise user the sign-in made', async () => {
    const shown = await call('GET', `/groups/${groupId}/enterprise_users/${member.id}`, owner.token);
    expect(shown.body).toMatchObject({ id: member.id, username: 'member' });
    expect((await call('GET', `/groups/${groupId}/enterprise_users/${owner.id}`, owner.token)).status).toBe(404);
  });

  it('removes the identity, then the provider', async () => {
    expect((await call('DELETE', `/groups/${groupId}/saml/member@idp`, owner.token)).status).toBe(204);
    expect((await call('GET', `/groups/${groupId}/saml/member@idp`, owner.token)).status).toBe(404);
    expect((await call('DELETE', `/groups/${groupId}/saml_provider`, owner.token)).status).toBe(204);
    expect((await call('GET', `/groups/${groupId}/saml_provider`, owner.token)).status).toBe(404);
  });
});
