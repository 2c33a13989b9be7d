import { kernelServices } from '@forgekit/kernel';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samlEvents, type SamlIdentityLinked } from './contracts.js';
import { SamlGroupLinkEntity } from './entities/saml-group-link.js';
import { SamlIdentityEntity } from './entities/saml-identity.js';
import { samlPlugin } from './plugin.js';

const FINGERPRINT = 'aa:bb:cc:dd:ee:ff:00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd';

describe('group SAML', () => {
  let app: TestApp;
  let serial = 0;
  const group = () => `/api/v4/groups/${app.group.id}`;

  async function createUser() {
    serial += 1;
    const res = await app.post(
      '/api/v4/users',
      { username: `saml${serial}`, name: `Saml ${serial}`, email: `saml${serial}@example.com`, password: 'secret-password' },
      { token: 'admin' },
    );
    return res.body as { id: number; username: string };
  }
  /** A new top-level group owned by `owner`. */
  async function newGroup(parentId?: number) {
    serial += 1;
    const res = await app.post('/api/v4/groups', { name: `Sso ${serial}`, path: `sso-${serial}`, parent_id: parentId }, { token: 'owner' });
    expect(res.status).toBe(201);
    return res.body as { id: number };
  }
  const configure = (groupId: number, body: Record<string, unknown> = {}) =>
    app.put(
      `/api/v4/groups/${groupId}/saml_provider`,
      { sso_url: 'https://idp.example.com/sso', certificate_fingerprint: FINGERPRINT, ...body },
      { token: 'owner' },
    );
  const signIn = (groupId: number, body: Record<string, unknown>) => app.post(`/api/v4/groups/${groupId}/saml/identities`, body, { token: 'admin' });

  beforeAll(async () => {
    app = await createTestApp({ plugins: [samlPlugin] });
  });
  afterAll(() => app?.close());

  describe('provider', () => {
    it('answers 404 before one is configured, and GitLab’s 400 for identities', async () => {
      const none = await app.get(`${group()}/saml_provider`, { token: 'owner' });
      expect(none.status).toBe(404);
      expect(none.body).toEqual({ message: '404 SAML Provider Not Found' });
      const identities = await app.get(`${group()}/saml/identities`, { token: 'owner' });
      expect(identities.status).toBe(400);
      expect(identities.body).toEqual({ message: '400 Bad request' });
    });

    it('validates the settings', async () => {
      const missing = await app.put(`${group()}/saml_provider`, {}, { token: 'owner' });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ message: { sso_url: ["can't be blank"], certificate_fingerprint: ["can't be blank"] } });
      const bad = await configure(app.group.id, { sso_url: 'http://idp.example.com', certificate_fingerprint: 'abc' });
      expect(bad.body).toEqual({
        message: {
          sso_url: ['is blocked: Only allowed schemes are https'],
          certificate_fingerprint: ['must be 40 or 64 hex characters, with or without colons'],
        },
      });
      const role = await configure(app.group.id, { default_membership_role: 50 });
      expect(role.status).toBe(400);
      expect(role.body).toEqual({ error: 'default_membership_role does not have a valid value' });
    });

    it('is for the Owners of a top-level group', async () => {
      expect((await configure(app.group.id, {}).then(() => app.put(`${group()}/saml_provider`, { enabled: true }, { token: 'maintainer' }))).status).toBe(403);
      const sub = await newGroup(app.group.id);
      const res = await configure(sub.id);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: '400 Bad request - SAML can only be configured for a top-level group' });
    });

    it('configures and changes the provider', async () => {
      const res = await configure(app.group.id, { default_membership_role: 20 });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        group_id: app.group.id,
        enabled: true,
        sso_url: 'https://idp.example.com/sso',
        certificate_fingerprint: FINGERPRINT,
        default_membership_role: 20,
      });
      const changed = await app.put(`${group()}/saml_provider`, { default_membership_role: 10 }, { token: 'owner' });
      expect(changed.body).toMatchObject({ default_membership_role: 10, sso_url: 'https://idp.example.com/sso' });
      expect((await app.get(`${group()}/saml_provider`, { token: 'owner' })).body.default_membership_role).toBe(10);
    });
  });

  describe('identities', () => {
    it('a sign-in records the identity and gives the default membership; the user shows it', async () => {
      const user = await createUser();
      const res = await signIn(app.group.id, { user_id: user.id, extern_uid: 'alice.smith' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ extern_uid: 'alice.smith', user_id: user.id });
      expect((await app.get(`${group()}/members/${user.id}`, { token: 'owner' })).body.access_level).toBe(10);
      const shown = await app.get(`/api/v4/users/${user.id}`, { token: 'admin' });
      expect(shown.body.identities).toEqual([{ provider: 'group_saml', extern_uid: 'alice.smith', saml_provider_id: expect.any(Number) }]);
    });

    it('lists, shows, changes and deletes identities for Owners', async () => {
      const user = await createUser();
      await signIn(app.group.id, { user_id: user.id, extern_uid: 'bob.jones' });
      const list = await app.get(`${group()}/saml/identities`, { token: 'owner' });
      expect(list.status).toBe(200);
      expect(list.body).toContainEqual({ extern_uid: 'bob.jones', user_id: user.id });
      expect((await app.get(`${group()}/saml/bob.jones`, { token: 'owner' })).body).toEqual({ extern_uid: 'bob.jones', user_id: user.id });
      const taken = await app.request('PATCH', `${group()}/saml/bob.jones`, { body: { extern_uid: 'alice.smith' }, token: 'owner' });
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual({ message: 'Extern uid has already been taken' });
      const changed = await app.request('PATCH', `${group()}/saml/bob.jones`, { body: { extern_uid: 'robert.jones' }, token: 'owner' });
      expect(changed.status).toBe(200);
      expect(changed.body).toEqual({ extern_uid: 'robert.jones', user_id: user.id });
      const missing = await app.get(`${group()}/saml/bob.jones`, { token: 'owner' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 Identity Not Found' });
      const deleted = await app.delete(`${group()}/saml/robert.jones`, { token: 'owner' });
      expect(deleted.status).toBe(204);
      expect((await app.get(`${group()}/saml/robert.jones`, { token: 'owner' })).status).toBe(404);
    });

    it('answers 403 to non-owner members, 404 to strangers, 401 anonymous', async () => {
      expect((await app.get(`${group()}/saml/identities`, { token: 'maintainer' })).status).toBe(403);
      const stranger = await app.get(`${group()}/saml/identities`, { token: 'nonMember' });
      expect(stranger.status).toBe(404);
      expect(stranger.body).toEqual({ message: '404 Group Not Found' });
      expect((await app.get(`${group()}/saml/identities`)).status).toBe(401);
      expect((await app.post(`${group()}/saml/identities`, { user_id: 1, extern_uid: 'x' }, { token: 'owner' })).status).toBe(403);
    });
  });

  describe('events', () => {
    it('announces a new or changed identity from a sign-in or the users routes, and nothing else', async () => {
      const linked: SamlIdentityLinked[] = [];
      app.kernel.resolve(kernelServices.events).on(samlEvents.identityLinked, (payload) => void linked.push(payload));
      const groupId = (await newGroup()).id;
      expect((await configure(groupId)).status).toBe(200);
      const provider = (await app.get(`/api/v4/groups/${groupId}/saml_provider`, { token: 'owner' })).body;
      const user = await createUser();
      expect((await signIn(groupId, { user_id: user.id, extern_uid: 'event-1' })).status).toBe(201);
      expect((await signIn(groupId, { user_id: user.id, extern_uid: 'event-1' })).status).toBe(201);
      expect((await signIn(groupId, { user_id: user.id, extern_uid: 'event-2' })).status).toBe(201);
      const other = await createUser();
      expect((await signIn(groupId, { user_id: other.id, extern_uid: 'event-2' })).status).toBe(400);
      const put = await app.put(`/api/v4/users/${other.id}`, { provider: 'group_saml', extern_uid: 'event-3', group_id_for_saml: groupId }, { token: 'admin' });
      expect(put.status).toBe(200);
      // An Owner's change of an extern uid provisions no one.
      const patched = await app.request('PATCH', `/api/v4/groups/${groupId}/saml/event-3`, { body: { extern_uid: 'event-4' }, token: 'owner' });
      expect(patched.status).toBe(200);
      const at = { groupId, samlProviderId: provider.id };
      expect(linked).toEqual([
        { userId: user.id, externUid: 'event-1', ...at },
        { userId: user.id, externUid: 'event-2', ...at },
        { userId: other.id, externUid: 'event-3', ...at },
      ]);
    });
  });

  describe('the users routes (self-managed path)', () => {
    it('POST and PUT /users give a group_saml identity; DELETE /users/:id/identities/group_saml removes it', async () => {
      serial += 1;
      const created = await app.post(
        '/api/v4/users',
        {
          username: `sso${serial}`,
          name: 'Sso',
          email: `sso${serial}@example.com`,
          password: 'secret-password',
          provider: 'group_saml',
          extern_uid: `sso-${serial}`,
          group_id_for_saml: app.group.id,
        },
        { token: 'admin' },
      );
      expect(created.status).toBe(201);
      expect(created.body.identities).toEqual([{ provider: 'group_saml', extern_uid: `sso-${serial}`, saml_provider_id: expect.any(Number) }]);
      expect((await app.get(`${group()}/saml/sso-${serial}`, { token: 'owner' })).body).toEqual({ extern_uid: `sso-${serial}`, user_id: created.body.id });

      const changed = await app.put(
        `/api/v4/users/${created.body.id}`,
        { provider: 'group_saml', extern_uid: `renamed-${serial}`, group_id_for_saml: app.group.id },
        { token: 'admin' },
      );
      expect(changed.status).toBe(200);
      expect(changed.body.identities).toEqual([{ provider: 'group_saml', extern_uid: `renamed-${serial}`, saml_provider_id: expect.any(Number) }]);

      const removed = await app.delete(`/api/v4/users/${created.body.id}/identities/group_saml`, { token: 'admin' });
      expect(removed.status).toBe(204);
      const again = await app.delete(`/api/v4/users/${created.body.id}/identities/group_saml`, { token: 'admin' });
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ message: '404 Identity Not Found' });
      expect((await app.delete('/api/v4/users/999999/identities/group_saml', { token: 'admin' })).body).toEqual({ message: '404 User Not Found' });
    });

    it('refuses an identity it cannot record, before the user is written', async () => {
      const base = { name: 'Nope', password: 'secret-password', provider: 'group_saml', extern_uid: 'alice.smith' };
      const taken = await app.post(
        '/api/v4/users',
        { ...base, username: 'nope1', email: 'nope1@example.com', group_id_for_saml: app.group.id },
        { token: 'admin' },
      );
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual({ message: { identities: ['Extern uid has already been taken'] } });
      const noGroup = await app.post('/api/v4/users', { ...base, username: 'nope2', email: 'nope2@example.com' }, { token: 'admin' });
      expect(noGroup.body).toEqual({ message: { identities: ['group_id_for_saml is required for the group_saml provider'] } });
      const half = await app.post('/api/v4/users', { ...base, provider: undefined, username: 'nope3', email: 'nope3@example.com' }, { token: 'admin' });
      expect(half.status).toBe(400);
      expect(half.body).toEqual({ error: 'extern_uid, provider provide all or none of parameters' });
      const unknown = await app.post('/api/v4/users', { ...base, provider: 'ldapmain', username: 'nope4', email: 'nope4@example.com' }, { token: 'admin' });
      expect(unknown.body).toEqual({ message: { identities: ['provider ldapmain is not supported'] } });
      expect((await app.get('/api/v4/users', { token: 'admin', query: { username: 'nope1' } })).body).toEqual([]);
    });
  });

  describe('group links', () => {
    const links = () => `${group()}/saml_group_links`;

    it('creates, lists, finds and deletes links', async () => {
      const res = await app.post(links(), { saml_group_name: 'devs', access_level: 30 }, { token: 'owner' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ name: 'devs', access_level: 30, member_role_id: null, provider: null });
      const list = await app.get(links(), { token: 'owner' });
      expect(list.body).toEqual([{ name: 'devs', access_level: 30, member_role_id: null, provider: null }]);
      expect((await app.get(`${links()}/devs`, { token: 'owner' })).body).toMatchObject({ name: 'devs', access_level: 30 });
      const deleted = await app.delete(`${links()}/devs`, { token: 'owner' });
      expect(deleted.status).toBe(204);
      const gone = await app.get(`${links()}/devs`, { token: 'owner' });
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual({ message: '404 Not found' });
    });

    it('validates access levels, names and duplicates', async () => {
      const missing = await app.post(links(), { access_level: 30 }, { token: 'owner' });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ error: 'saml_group_name is missing' });
      const level = await app.post(links(), { saml_group_name: 'x', access_level: 11 }, { token: 'owner' });
      expect(level.body).toEqual({ error: 'access_level does not have a valid value' });
      const minimal = await app.post(links(), { saml_group_name: 'x', access_level: 5 }, { token: 'owner' });
      expect(minimal.status).toBe(400);
      expect(minimal.body).toEqual({ message: 'Access level is invalid' });
      const long = await app.post(links(), { saml_group_name: 'x', access_level: 10, provider: 'p'.repeat(256) }, { token: 'owner' });
      expect(long.status).toBe(400);
      expect(long.body).toEqual({ message: { provider: ['is too long (maximum is 255 characters)'] } });
      await app.post(links(), { saml_group_name: 'ops', access_level: 20 }, { token: 'owner' });
      const again = await app.post(links(), { saml_group_name: 'ops', access_level: 40, provider: '  ' }, { token: 'owner' });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ message: 'Saml group name has already been taken' });
    });

    it('tells links of one name apart by provider', async () => {
      await app.post(links(), { saml_group_name: 'shared', access_level: 10, provider: 'okta' }, { token: 'owner' });
      await app.post(links(), { saml_group_name: 'shared', access_level: 30, provider: 'azure' }, { token: 'owner' });
      await app.post(links(), { saml_group_name: 'shared', access_level: 40 }, { token: 'owner' });
      const ambiguous = await app.get(`${links()}/shared`, { token: 'owner' });
      expect(ambiguous.status).toBe(422);
      expect(ambiguous.body).toEqual({ message: 'Multiple group links found with the same name. Please specify a provider parameter to disambiguate.' });
      expect((await app.get(`${links()}/shared`, { token: 'owner', query: { provider: 'azure' } })).body).toMatchObject({
        access_level: 30,
        provider: 'azure',
      });
      expect((await app.get(`${links()}/shared`, { token: 'owner', query: { provider: '' } })).body).toMatchObject({ access_level: 40, provider: null });
      expect((await app.delete(`${links()}/shared`, { token: 'owner' })).status).toBe(422);
      expect((await app.delete(`${links()}/shared`, { token: 'owner', query: { provider: 'okta' } })).status).toBe(204);
      expect((await app.get(`${links()}/shared`, { token: 'owner', query: { provider: 'okta' } })).status).toBe(404);
    });

    it('answers 401 to non-owners and where SAML is not enabled, 404 to strangers', async () => {
      const denied = await app.get(links(), { token: 'maintainer' });
      expect(denied.status).toBe(401);
      expect(denied.body).toEqual({ message: '401 Unauthorized' });
      expect((await app.get(links(), { token: 'nonMember' })).status).toBe(404);
      const plain = await newGroup();
      expect((await app.get(`/api/v4/groups/${plain.id}/saml_group_links`, { token: 'owner' })).status).toBe(401);
    });

    it('a sign-in with SAML groups gets the mapped memberships, in subgroups too', async () => {
      const sub = await newGroup(app.group.id);
      await app.post(links(), { saml_group_name: 'leads', access_level: 40 }, { token: 'owner' });
      await app.post(`/api/v4/groups/${sub.id}/saml_group_links`, { saml_group_name: 'leads', access_level: 30, provider: 'okta' }, { token: 'owner' });
      const user = await createUser();
      const res = await signIn(app.group.id, { user_id: user.id, extern_uid: `lead-${user.id}`, saml_groups: 'leads,unrelated', provider: 'okta' });
      expect(res.status).toBe(201);
      expect((await app.get(`${group()}/members/${user.id}`, { token: 'owner' })).body.access_level).toBe(40);
      expect((await app.get(`/api/v4/groups/${sub.id}/members/${user.id}`, { token: 'owner' })).body.access_level).toBe(30);
      // Signed in through another provider, the okta-only link does not apply.
      const other = await createUser();
      await signIn(app.group.id, { user_id: other.id, extern_uid: `other-${other.id}`, saml_groups: 'leads', provider: 'azure' });
      expect((await app.get(`/api/v4/groups/${sub.id}/members/${other.id}`, { token: 'owner' })).status).toBe(404);
    });

    it('a disabled provider takes no sign-ins', async () => {
      const plain = await newGroup();
      await configure(plain.id, { enabled: false });
      const res = await signIn(plain.id, { user_id: app.users.guest.id, extern_uid: 'guest' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: '400 Bad request - SAML is not enabled for this group' });
    });
  });

  describe('cleanup', () => {
    it('deleting a group removes its provider, identities and links; deleting a user removes their identities', async () => {
      const doomed = await newGroup();
      await configure(doomed.id);
      const user = await createUser();
      await signIn(doomed.id, { user_id: user.id, extern_uid: 'doomed-user' });
      await app.post(`/api/v4/groups/${doomed.id}/saml_group_links`, { saml_group_name: 'x', access_level: 10 }, { token: 'owner' });
      const database = app.kernel.resolve(kernelServices.database);
      expect(await database.count(database.from(SamlIdentityEntity).where('userId', user.id))).toBe(1);
      expect((await app.delete(`/api/v4/groups/${doomed.id}`, { token: 'owner' })).status).toBe(202);
      expect(await database.count(database.from(SamlIdentityEntity).where('userId', user.id))).toBe(0);
      expect(await database.count(database.from(SamlGroupLinkEntity).where('groupId', doomed.id))).toBe(0);

      const leaver = await createUser();
      await signIn(app.group.id, { user_id: leaver.id, extern_uid: 'leaver' });
      expect((await app.delete(`/api/v4/users/${leaver.id}`, { token: 'admin' })).status).toBe(204);
      expect(await database.count(database.from(SamlIdentityEntity).where('userId', leaver.id))).toBe(0);
    });
  });
});
