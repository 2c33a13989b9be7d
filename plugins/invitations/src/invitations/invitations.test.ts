import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { kernelServices } from '@forgekit/kernel';
import { coreEvents, type MemberEventPayload } from '@forgekit/plugin-core/contracts';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvitationEntity } from '../entities/invitation.js';
import { invitationsPlugin } from '../plugin.js';

const INVITATION_FIELDS = ['id', 'invite_email', 'created_at', 'access_level', 'expires_at', 'user_name', 'created_by_name'];
const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('invitations', () => {
  let app: TestApp;
  let outbox: string;
  let serial = 0;
  const memberEvents: { kind: string; payload: MemberEventPayload }[] = [];
  const groupPath = () => `/api/v4/groups/${app.group.id}/invitations`;
  const projectPath = () => `/api/v4/projects/${app.project.id}/invitations`;
  const email = () => `invitee-${++serial}@example.org`;

  async function createUser(address: string, extra: Record<string, unknown> = {}) {
    serial += 1;
    const res = await app.post(
      '/api/v4/users',
      { username: `invitee${serial}`, name: `Invitee ${serial}`, email: address, password: 'secret-password', ...extra },
      { token: 'admin' },
    );
    expect(res.status).toBe(201);
    return res.body as { id: number };
  }
  const memberOf = (path: string, userId: number) => app.get(`${path}/members/${userId}`, { token: 'owner' });

  /** The messages in the outbox that went to `address`. */
  async function mailTo(address: string) {
    const names = (await readdir(outbox).catch(() => [] as string[])).filter((name) => name.endsWith('.eml'));
    // Long lines arrive quoted-printable: soft line breaks are joined back.
    const messages = (await Promise.all(names.map((name) => readFile(join(outbox, name), 'utf8')))).map((text) => text.replace(/=\r?\n/g, ''));
    return messages.filter((text) => text.includes(`To: ${address}`));
  }

  beforeAll(async () => {
    app = await createTestApp({ plugins: [invitationsPlugin] });
    outbox = join(app.kernel.resolve(kernelServices.instance).dataDir, 'outbox');
    const events = app.kernel.resolve(kernelServices.events);
    for (const kind of ['memberAdded', 'memberUpdated', 'memberRemoved'] as const) {
      events.on(coreEvents[kind], (payload) => {
        memberEvents.push({ kind, payload });
      });
    }
  });
  afterAll(() => app?.close());

  describe('POST', () => {
    it('invites an email: 201 success, a pending invitation and an email with the link', async () => {
      const address = email();
      const res = await app.post(groupPath(), { email: address, access_level: 30 }, { token: 'owner' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ status: 'success' });
      const list = await app.get(groupPath(), { token: 'owner', query: { query: address } });
      expect(list.status).toBe(200);
      expect(list.body).toHaveLength(1);
      expect(Object.keys(list.body[0])).toEqual(INVITATION_FIELDS);
      expect(list.body[0]).toMatchObject({ invite_email: address, access_level: 30, expires_at: null, user_name: null, created_by_name: 'Owner User' });
      const [mail] = await mailTo(address);
      expect(mail).toContain('Subject: Invitation to join the Test Group group');
      expect(mail).toMatch(/http:\/\/localhost\/api\/v4\/invitations\/fkinv-[A-Za-z0-9]+\/accept/);
    });

    it('re-inviting updates the invitation instead of adding another', async () => {
      const address = email();
      await app.post(projectPath(), { email: address, access_level: 20 }, { token: 'maintainer' });
      const again = await app.post(projectPath(), { email: address, access_level: 40, expires_at: dayFromNow(5) }, { token: 'maintainer' });
      expect(again.body).toEqual({ status: 'success' });
      const list = await app.get(projectPath(), { token: 'maintainer', query: { query: address } });
      expect(list.body).toHaveLength(1);
      expect(list.body[0]).toMatchObject({ access_level: 40, expires_at: dayFromNow(5) });
      expect(await mailTo(address)).toHaveLength(1);
    });

    it("a user's confirmed email becomes a membership, not an invitation", async () => {
      const address = email();
      const user = await createUser(address);
      memberEvents.length = 0;
      const res = await app.post(projectPath(), { email: address, access_level: 30 }, { token: 'owner' });
      expect(res.body).toEqual({ status: 'success' });
      expect((await memberOf(`/api/v4/projects/${app.project.id}`, user.id)).body).toMatchObject({ id: user.id, access_level: 30 });
      expect((await app.get(projectPath(), { token: 'owner', query: { query: address } })).body).toEqual([]);
      expect(memberEvents).toEqual([{ kind: 'memberAdded', payload: expect.objectContaining({ sourceType: 'Project', userId: user.id, accessLevel: 30 }) }]);
      // Inviting a member again changes their level.
      await app.post(projectPath(), { email: address, access_level: 20 }, { token: 'owner' });
      expect((await memberOf(`/api/v4/projects/${app.project.id}`, user.id)).body.access_level).toBe(20);
      expect(memberEvents.at(-1)).toMatchObject({ kind: 'memberUpdated', payload: { accessLevel: 20 } });
    });

    it('an unconfirmed email stays an invitation', async () => {
      const address = email();
      await createUser(address, { skip_confirmation: false });
      await app.post(groupPath(), { email: address, access_level: 10 }, { token: 'owner' });
      expect((await app.get(groupPath(), { token: 'owner', query: { query: address } })).body).toHaveLength(1);
    });

    it('invites users by id, several at once with emails', async () => {
      const first = await createUser(email());
      const second = await createUser(email());
      const address = email();
      const res = await app.post(groupPath(), { user_id: `${first.id},${second.id}`, email: address, access_level: 20 }, { token: 'owner' });
      expect(res.body).toEqual({ status: 'success' });
      for (const user of [first, second]) expect((await memberOf(`/api/v4/groups/${app.group.id}`, user.id)).body.access_level).toBe(20);
      expect((await app.get(groupPath(), { token: 'owner', query: { query: address } })).body).toHaveLength(1);
    });

    it('refuses expires_at in the past per recipient, with 201', async () => {
      const address = email();
      const res = await app.post(groupPath(), { email: address, access_level: 30, expires_at: dayFromNow(-1) }, { token: 'owner' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ status: 'error', message: { [address]: 'Expires at cannot be a date in the past' } });
      expect((await app.get(groupPath(), { token: 'owner', query: { query: address } })).body).toEqual([]);
    });

    it('refuses more than 100 recipients', async () => {
      const emails = Array.from({ length: 101 }, (_, i) => `bulk-${i}@example.org`).join(',');
      const res = await app.post(groupPath(), { email: emails, access_level: 30 }, { token: 'owner' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ status: 'error', message: 'Too many users specified (limit is 100)' });
      expect((await app.get(groupPath(), { token: 'owner', query: { query: 'bulk-0@example.org' } })).body).toEqual([]);
    });

    it('answers GitLab’s 400s for bad input', async () => {
      const missing = await app.post(groupPath(), { access_level: 30 }, { token: 'owner' });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ message: '400 Bad request - Must provide either email or user_id as a parameter' });
      const invalid = await app.post(groupPath(), { email: 'good@example.org,not-an-email', access_level: 30 }, { token: 'owner' });
      expect(invalid.status).toBe(400);
      expect(invalid.body).toEqual({ error: 'email contains an invalid email address' });
      const level = await app.post(groupPath(), { email: email(), access_level: 11 }, { token: 'owner' });
      expect(level.status).toBe(400);
      expect(level.body).toEqual({ error: 'access_level does not have a valid value' });
      const noLevel = await app.post(groupPath(), { email: email() }, { token: 'owner' });
      expect(noLevel.status).toBe(400);
      expect(noLevel.body).toEqual({ error: 'access_level is missing, access_level does not have a valid value' });
    });

    it('a Maintainer cannot invite as Owner; a Developer cannot invite; a stranger gets 404; anonymous 401', async () => {
      const asOwner = await app.post(groupPath(), { email: email(), access_level: 50 }, { token: 'maintainer' });
      expect(asOwner.status).toBe(403);
      expect(asOwner.body).toEqual({ message: '403 Forbidden' });
      expect((await app.post(groupPath(), { email: email(), access_level: 30 }, { token: 'developer' })).status).toBe(403);
      const stranger = await app.post(projectPath(), { email: email(), access_level: 30 }, { token: 'nonMember' });
      expect(stranger.status).toBe(404);
      expect(stranger.body).toEqual({ message: '404 Project Not Found' });
      expect((await app.post(groupPath(), { email: email(), access_level: 30 })).status).toBe(401);
      expect((await app.post(groupPath(), { email: email(), access_level: 50 }, { token: 'owner' })).body).toEqual({ status: 'success' });
    });
  });

  describe('inherited memberships', () => {
    const refusal = (level: string, group: string) => `Access level should be greater than or equal to ${level} inherited membership from group ${group}`;
    let subgroup: { id: number; name: string };
    let subProject: { id: number };
    beforeAll(async () => {
      subgroup = (await app.post('/api/v4/groups', { name: 'Inner Team', path: 'inner-team', parent_id: app.group.id }, { token: 'owner' })).body;
      subProject = (await app.post('/api/v4/projects', { name: 'Inner Project', path: 'inner-project', namespace_id: subgroup.id }, { token: 'owner' })).body;
      expect(subProject.id).toBeGreaterThan(0);
    });
    /** A new user with a confirmed email and a membership of `groupId` at `level`. */
    async function memberOfGroup(groupId: number, level: number) {
      const address = email();
      const user = await createUser(address);
      expect((await app.post(`/api/v4/groups/${groupId}/members`, { user_id: user.id, access_level: level }, { token: 'owner' })).status).toBe(201);
      const { username } = (await app.get(`/api/v4/users/${user.id}`, { token: 'admin' })).body;
      return { ...user, email: address, username: username as string };
    }

    it("refuses a level below the user's membership of a group above, keyed by email or username, and makes no membership", async () => {
      const developer = await memberOfGroup(app.group.id, 30);
      const byEmail = await app.post(projectPath(), { email: developer.email, access_level: 20 }, { token: 'maintainer' });
      expect(byEmail.status).toBe(201);
      expect(byEmail.body).toEqual({ status: 'error', message: { [developer.email]: refusal('Developer', 'Test Group') } });
      const byId = await app.post(projectPath(), { user_id: developer.id, access_level: 10 }, { token: 'maintainer' });
      expect(byId.body).toEqual({ status: 'error', message: { [developer.username]: refusal('Developer', 'Test Group') } });
      expect((await memberOf(`/api/v4/projects/${app.project.id}`, developer.id)).status).toBe(404);
      expect((await app.get(projectPath(), { token: 'owner', query: { query: developer.email } })).body).toEqual([]);
    });

    it('takes the highest membership above, however far up, and names that group', async () => {
      const user = await memberOfGroup(app.group.id, 20);
      expect((await app.post(`/api/v4/groups/${subgroup.id}/members`, { user_id: user.id, access_level: 40 }, { token: 'owner' })).status).toBe(201);
      const project = await app.post(`/api/v4/projects/${subProject.id}/invitations`, { user_id: user.id, access_level: 30 }, { token: 'owner' });
      expect(project.body).toEqual({ status: 'error', message: { [user.username]: refusal('Maintainer', 'Inner Team') } });
      const maintainerAbove = await memberOfGroup(app.group.id, 40);
      const group = await app.post(`/api/v4/groups/${subgroup.id}/invitations`, { email: maintainerAbove.email, access_level: 30 }, { token: 'owner' });
      expect(group.body).toEqual({ status: 'error', message: { [maintainerAbove.email]: refusal('Maintainer', 'Test Group') } });
    });

    it('accepts a level equal to or above the inherited one, and the rest of a call where one recipient is refused', async () => {
      const developer = await memberOfGroup(app.group.id, 30);
      const owner = await memberOfGroup(app.group.id, 50);
      const res = await app.post(projectPath(), { user_id: `${developer.id},${owner.id}`, access_level: 30 }, { token: 'owner' });
      expect(res.body).toEqual({ status: 'error', message: { [owner.username]: refusal('Owner', 'Test Group') } });
      expect((await memberOf(`/api/v4/projects/${app.project.id}`, developer.id)).body).toMatchObject({ access_level: 30 });
      expect((await memberOf(`/api/v4/projects/${app.project.id}`, owner.id)).status).toBe(404);
    });

    it("keeps an invitation the user's membership above has outgrown: the link answers the refusal, confirming the address leaves it", async () => {
      const linked = await memberOfGroup(app.group.id, 20);
      const invited = email();
      await app.post(projectPath(), { email: invited, access_level: 20 }, { token: 'owner' });
      const token = /invitations\/(fkinv-[A-Za-z0-9]+)\/accept/.exec((await mailTo(invited))[0]!)![1]!;
      // After the invitation, the user's group membership rises above the invited level.
      expect((await app.put(`/api/v4/groups/${app.group.id}/members/${linked.id}`, { access_level: 40 }, { token: 'owner' })).status).toBe(200);
      const { token: userToken } = (await app.post(`/api/v4/users/${linked.id}/personal_access_tokens`, { name: 't', scopes: ['api'] }, { token: 'admin' }))
        .body;
      const refused = await app.post(`/api/v4/invitations/${token}/accept`, {}, { token: userToken });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ message: { access_level: ['should be greater than or equal to Maintainer inherited membership from group Test Group'] } });
      expect((await memberOf(`/api/v4/projects/${app.project.id}`, linked.id)).status).toBe(404);
      expect((await app.get(projectPath(), { token: 'owner', query: { query: invited } })).body).toHaveLength(1);

      const confirming = await memberOfGroup(app.group.id, 10);
      const address = email();
      await app.post(projectPath(), { email: address, access_level: 20 }, { token: 'owner' });
      await app.put(`/api/v4/groups/${app.group.id}/members/${confirming.id}`, { access_level: 30 }, { token: 'owner' });
      await app.put(`/api/v4/users/${confirming.id}`, { email: address }, { token: 'admin' });
      expect((await memberOf(`/api/v4/projects/${app.project.id}`, confirming.id)).status).toBe(404);
      expect((await app.get(projectPath(), { token: 'owner', query: { query: address } })).body).toHaveLength(1);
    });

    it("ignores the source's own membership and invitations of unknown addresses", async () => {
      const member = await memberOfGroup(app.group.id, 40);
      expect((await app.post(groupPath(), { email: member.email, access_level: 20 }, { token: 'owner' })).body).toEqual({ status: 'success' });
      expect((await memberOf(`/api/v4/groups/${app.group.id}`, member.id)).body.access_level).toBe(20);
      expect((await app.post(projectPath(), { email: email(), access_level: 10 }, { token: 'owner' })).body).toEqual({ status: 'success' });
    });
  });

  describe('GET', () => {
    it('lists the source’s own invitations, paginated; Developers get 403', async () => {
      const res = await app.get(groupPath(), { token: 'owner', query: { per_page: 2 } });
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(2);
      expect(Number(res.headers.get('x-total'))).toBeGreaterThan(2);
      expect((await app.get(groupPath(), { token: 'developer' })).status).toBe(403);
      const project = (await app.get(projectPath(), { token: 'owner' })).body as { invite_email: string }[];
      const group = (await app.get(groupPath(), { token: 'owner', query: { per_page: 100 } })).body as { invite_email: string }[];
      expect(project.some((row) => group.some((other) => other.invite_email === row.invite_email))).toBe(false);
    });
  });

  describe('PUT', () => {
    it('changes the level and expiry', async () => {
      const address = email();
      await app.post(groupPath(), { email: address, access_level: 20 }, { token: 'owner' });
      const res = await app.put(`${groupPath()}/${encodeURIComponent(address)}`, { access_level: 40, expires_at: dayFromNow(3) }, { token: 'owner' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ invite_email: address, access_level: 40, expires_at: dayFromNow(3) });
    });

    it('answers 400 with nothing to change or a past date, 404 for an unknown email, 403 for a Maintainer making an Owner', async () => {
      const address = email();
      await app.post(groupPath(), { email: address, access_level: 20 }, { token: 'owner' });
      const path = `${groupPath()}/${encodeURIComponent(address)}`;
      const nothing = await app.put(path, {}, { token: 'owner' });
      expect(nothing.status).toBe(400);
      expect(nothing.body).toEqual({ error: 'access_level, expires_at are missing, at least one parameter must be provided' });
      const past = await app.put(path, { expires_at: dayFromNow(-2) }, { token: 'owner' });
      expect(past.status).toBe(400);
      expect(past.body).toEqual({ message: { expires_at: ['cannot be a date in the past'] } });
      const unknown = await app.put(`${groupPath()}/nobody%40example.org`, { access_level: 30 }, { token: 'owner' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ message: '404 Not found' });
      expect((await app.put(path, { access_level: 50 }, { token: 'maintainer' })).status).toBe(403);
    });
  });

  describe('DELETE', () => {
    it('removes an invitation: 204, then 404', async () => {
      const address = email();
      await app.post(projectPath(), { email: address, access_level: 20 }, { token: 'owner' });
      const path = `${projectPath()}/${encodeURIComponent(address)}`;
      expect((await app.delete(path, { token: 'developer' })).status).toBe(403);
      const res = await app.delete(path, { token: 'maintainer' });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const again = await app.delete(path, { token: 'maintainer' });
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ message: '404 Not found' });
    });
  });

  describe('acceptance', () => {
    it('a user created with the invited email gets the membership at its level', async () => {
      const address = email();
      await app.post(groupPath(), { email: address, access_level: 30, expires_at: dayFromNow(10) }, { token: 'owner' });
      await app.post(projectPath(), { email: address, access_level: 40 }, { token: 'owner' });
      const user = await createUser(address.toUpperCase());
      expect((await memberOf(`/api/v4/groups/${app.group.id}`, user.id)).body).toMatchObject({ access_level: 30, expires_at: dayFromNow(10) });
      expect((await memberOf(`/api/v4/projects/${app.project.id}`, user.id)).body).toMatchObject({ access_level: 40 });
      expect((await app.get(groupPath(), { token: 'owner', query: { query: address } })).body).toEqual([]);
    });

    it('an administrator changing a user’s email to an invited one accepts it', async () => {
      const user = await createUser(email());
      const address = email();
      await app.post(groupPath(), { email: address, access_level: 20 }, { token: 'owner' });
      await app.put(`/api/v4/users/${user.id}`, { email: address }, { token: 'admin' });
      expect((await memberOf(`/api/v4/groups/${app.group.id}`, user.id)).body).toMatchObject({ access_level: 20 });
    });

    it('the emailed link accepts the invitation for the signed-in user, once', async () => {
      const address = email();
      await app.post(projectPath(), { email: address, access_level: 30 }, { token: 'owner' });
      const [mail] = await mailTo(address);
      const token = /invitations\/(fkinv-[A-Za-z0-9]+)\/accept/.exec(mail!)![1]!;
      const res = await app.post(`/api/v4/invitations/${token}/accept`, {}, { token: 'reporter' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ source_type: 'Project', source_id: app.project.id, user_id: app.users.reporter.id, access_level: 30, expires_at: null });
      expect((await memberOf(`/api/v4/projects/${app.project.id}`, app.users.reporter.id)).body.access_level).toBe(30);
      const again = await app.post(`/api/v4/invitations/${token}/accept`, {}, { token: 'reporter' });
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ message: '404 Invitation Not Found' });
      expect((await app.post(`/api/v4/invitations/${token}/accept`, {})).status).toBe(401);
    });
  });

  describe('cleanup', () => {
    it('deleting a group removes its invitations', async () => {
      const group = (await app.post('/api/v4/groups', { name: 'Doomed', path: 'doomed' }, { token: 'owner' })).body;
      const address = email();
      await app.post(`/api/v4/groups/${group.id}/invitations`, { email: address, access_level: 30 }, { token: 'owner' });
      expect((await app.delete(`/api/v4/groups/${group.id}`, { token: 'owner' })).status).toBe(202);
      const database = app.kernel.resolve(kernelServices.database);
      expect(await database.count(database.from(InvitationEntity).where({ sourceType: 'Namespace', sourceId: group.id }))).toBe(0);
      expect(await database.count(database.from(InvitationEntity).where({ inviteEmail: address }))).toBe(0);
    });
  });
});
