import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { recordStatements } from '@forgekit/testing';
import { coreTokensRef, coreUsersRef } from '../contracts.js';

const MEMBER_FIELDS = [
  'id',
  'username',
  'public_email',
  'name',
  'state',
  'locked',
  'avatar_url',
  'web_url',
  'access_level',
  'created_at',
  'created_by',
  'expires_at',
  'membership_state',
];
const RECORD_NOT_FOUND = { message: '404 Not found' };
const FORBIDDEN = { message: '403 Forbidden' };
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

type Member = { id: number; username: string; access_level: number };
const levels = (members: Member[]) => Object.fromEntries(members.map((m) => [m.username, m.access_level]));

describe('members', () => {
  let app: TestApp;
  let serial = 0;

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app?.close());

  const unique = (prefix: string) => `${prefix}-${(serial += 1)}`;

  async function newUser() {
    serial += 1;
    return app.kernel.resolve(coreUsersRef).create({ username: `member-${serial}`, name: `Member ${serial}`, email: `member-${serial}@example.com` });
  }

  /** A fresh project in `test-group`, so direct memberships start empty. */
  async function groupProject() {
    const res = await app.post('/api/v4/projects', { name: unique('Members Project'), namespace_id: app.group.id }, { token: 'owner' });
    expect(res.status).toBe(201);
    return res.body as { id: number; path_with_namespace: string };
  }

  describe('listing', () => {
    it('lists direct members only on /members, with the Member fields in order', async () => {
      const project = await groupProject();
      expect((await app.get(`/api/v4/projects/${project.id}/members`, { token: 'guest' })).body).toEqual([]);
      const user = await newUser();
      await app.post(`/api/v4/projects/${project.id}/members`, { user_id: user.id, access_level: 30 }, { token: 'maintainer' });
      const res = await app.get(`/api/v4/projects/${project.id}/members`, { token: 'guest' });
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(1);
      expect(Object.keys(res.body[0])).toEqual(MEMBER_FIELDS);
      expect(res.body[0]).toMatchObject({
        id: user.id,
        username: user.username,
        access_level: 30,
        expires_at: null,
        membership_state: 'active',
        created_by: { id: app.users.maintainer.id, username: 'maintainer' },
      });
      expect(res.headers.get('x-total')).toBe('1');
    });

    it('leaves created_by out when nobody is recorded', async () => {
      const res = await app.get(`/api/v4/groups/${app.group.id}/members/${app.users.developer.id}`, { token: 'guest' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(MEMBER_FIELDS.filter((key) => key !== 'created_by'));
    });

    it('lists inherited members on /members/all, once per user at the highest level', async () => {
      const project = await groupProject();
      await app.post(`/api/v4/projects/${project.id}/members`, { user_id: app.users.guest.id, access_level: 30 }, { token: 'owner' });
      await app.post(`/api/v4/projects/${project.id}/members`, { user_id: app.users.maintainer.id, access_level: 20 }, { token: 'owner' });
      const res = await app.get(`/api/v4/projects/${project.id}/members/all`, { token: 'reporter' });
      expect(res.status).toBe(200);
      expect(levels(res.body)).toEqual({ owner: 50, maintainer: 40, developer: 30, reporter: 20, guest: 30 });
      expect(res.body).toHaveLength(5);
      expect(res.headers.get('x-total')).toBe('5');
    });

    it('includes ancestor group members in a subgroup /members/all', async () => {
      const sub = (await app.post('/api/v4/groups', { name: 'Team', path: unique('team'), parent_id: app.group.id }, { token: 'maintainer' })).body;
      const direct = await app.get(`/api/v4/groups/${sub.id}/members`, { token: 'guest' });
      expect(levels(direct.body)).toEqual({ maintainer: 50 });
      const all = await app.get(`/api/v4/groups/${sub.id}/members/all`, { token: 'guest' });
      expect(levels(all.body)).toEqual({ owner: 50, maintainer: 50, developer: 30, reporter: 20, guest: 10 });
    });

    it('lists the owner of a personal project as its Owner member', async () => {
      const project = (await app.post('/api/v4/projects', { name: unique('Personal') }, { token: 'developer' })).body;
      const res = await app.get(`/api/v4/projects/${project.id}/members`, { token: 'developer' });
      expect(levels(res.body)).toEqual({ developer: 50 });
    });

    it('filters by query and user_ids', async () => {
      const byQuery = await app.get(`/api/v4/groups/${app.group.id}/members`, { token: 'guest', query: { query: 'REPORT' } });
      expect(levels(byQuery.body)).toEqual({ reporter: 20 });
      const ids = `${app.users.owner.id},${app.users.guest.id}`;
      const byIds = await app.get(`/api/v4/groups/${app.group.id}/members`, { token: 'guest', query: { user_ids: ids } });
      expect(levels(byIds.body)).toEqual({ owner: 50, guest: 10 });
    });

    it('paginates members', async () => {
      const res = await app.get(`/api/v4/groups/${app.group.id}/members`, { token: 'guest', query: { per_page: 2 } });
      expect(res.body).toHaveLength(2);
      expect(res.headers.get('x-total')).toBe('5');
      expect(res.headers.get('x-total-pages')).toBe('3');
      expect(res.headers.get('x-next-page')).toBe('2');
    });

    it('requires authentication and hides private sources', async () => {
      const anonymous = await app.get(`/api/v4/projects/${app.project.id}/members`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ message: '401 Unauthorized' });
      const stranger = await app.get(`/api/v4/projects/${app.project.id}/members/all`, { token: 'nonMember' });
      expect(stranger.status).toBe(404);
      expect(stranger.body).toEqual({ message: '404 Project Not Found' });
      const group = await app.get(`/api/v4/groups/${app.group.id}/members`, { token: 'nonMember' });
      expect(group.body).toEqual({ message: '404 Group Not Found' });
    });
  });

  describe('GET a member', () => {
    it('shows a direct member, and an inherited one only under /all', async () => {
      const project = await groupProject();
      const direct = await app.get(`/api/v4/projects/${encodeURIComponent(project.path_with_namespace)}/members/${app.users.developer.id}`, { token: 'guest' });
      expect(direct.status).toBe(404);
      expect(direct.body).toEqual(RECORD_NOT_FOUND);
      const inherited = await app.get(`/api/v4/projects/${project.id}/members/all/${app.users.developer.id}`, { token: 'guest' });
      expect(inherited.status).toBe(200);
      expect(inherited.body).toMatchObject({ id: app.users.developer.id, access_level: 30 });
    });

    it('answers a non-member with the lower-case record 404 and a bad id with 400', async () => {
      const res = await app.get(`/api/v4/groups/${app.group.id}/members/${app.users.nonMember.id}`, { token: 'guest' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(RECORD_NOT_FOUND);
      const all = await app.get(`/api/v4/groups/${app.group.id}/members/all/999999`, { token: 'guest' });
      expect(all.body).toEqual(RECORD_NOT_FOUND);
      const bad = await app.get(`/api/v4/groups/${app.group.id}/members/abc`, { token: 'guest' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'user_id is invalid' });
    });
  });

  describe('POST members', () => {
    it('adds a member by id or username, with an expiry', async () => {
      const project = await groupProject();
      const user = await newUser();
      const expires = tomorrow();
      const byId = await app.post(
        `/api/v4/projects/${project.id}/members`,
        { user_id: user.id, access_level: 30, expires_at: expires },
        { token: 'maintainer' },
      );
      expect(byId.status).toBe(201);
      expect(Object.keys(byId.body)).toEqual(MEMBER_FIELDS);
      expect(byId.body).toMatchObject({ id: user.id, access_level: 30, expires_at: expires });
      const other = await newUser();
      const byName = await app.post(
        `/api/v4/projects/${project.id}/members`,
        { username: other.username.toUpperCase(), access_level: 20 },
        { token: 'maintainer' },
      );
      expect(byName.status).toBe(201);
      expect(byName.body).toMatchObject({ id: other.id, access_level: 20 });
    });

    it('answers an existing member with 409 and an unknown user with 404', async () => {
      const existing = await app.post(`/api/v4/groups/${app.group.id}/members`, { user_id: app.users.guest.id, access_level: 10 }, { token: 'owner' });
      expect(existing.status).toBe(409);
      expect(existing.body).toEqual({ message: 'Member already exists' });
      const unknown = await app.post(`/api/v4/groups/${app.group.id}/members`, { user_id: 999999, access_level: 10 }, { token: 'owner' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ message: '404 User Not Found' });
    });

    it('answers an invalid access level or a past expiry with the model errors', async () => {
      const project = await groupProject();
      const user = await newUser();
      const level = await app.post(`/api/v4/projects/${project.id}/members`, { user_id: user.id, access_level: 35 }, { token: 'maintainer' });
      expect(level.status).toBe(400);
      expect(level.body).toEqual({ message: { access_level: ['is not included in the list'] } });
      const past = await app.post(
        `/api/v4/projects/${project.id}/members`,
        { user_id: user.id, access_level: 30, expires_at: '2020-01-01' },
        { token: 'maintainer' },
      );
      expect(past.status).toBe(400);
      expect(past.body).toEqual({ message: { expires_at: ['cannot be a date in the past'] } });
    });

    it('answers parameter errors in the framework shape', async () => {
      const path = `/api/v4/groups/${app.group.id}/members`;
      expect((await app.post(path, { user_id: 1 }, { token: 'owner' })).body).toEqual({ error: 'access_level is missing' });
      expect((await app.post(path, { access_level: 30 }, { token: 'owner' })).body).toEqual({
        error: 'user_id, username are missing, at least one parameter must be provided',
      });
      expect((await app.post(path, { user_id: 1, username: 'x', access_level: 30 }, { token: 'owner' })).body).toEqual({
        error: 'user_id, username are mutually exclusive',
      });
      expect((await app.post(path, { user_id: 1, access_level: 'high' }, { token: 'owner' })).body).toEqual({ error: 'access_level is invalid' });
    });

    it('refuses a maintainer granting Owner and a developer adding anyone', async () => {
      const project = await groupProject();
      const user = await newUser();
      const owner = await app.post(`/api/v4/projects/${project.id}/members`, { user_id: user.id, access_level: 50 }, { token: 'maintainer' });
      expect(owner.status).toBe(403);
      expect(owner.body).toEqual(FORBIDDEN);
      const developer = await app.post(`/api/v4/projects/${project.id}/members`, { user_id: user.id, access_level: 10 }, { token: 'developer' });
      expect(developer.status).toBe(403);
      expect(developer.body).toEqual(FORBIDDEN);
      const stranger = await app.post(`/api/v4/projects/${project.id}/members`, { user_id: user.id, access_level: 10 }, { token: 'nonMember' });
      expect(stranger.status).toBe(404);
      const byOwner = await app.post(`/api/v4/projects/${project.id}/members`, { user_id: user.id, access_level: 50 }, { token: 'owner' });
      expect(byOwner.status).toBe(201);
    });

    it('adds several users from a comma list', async () => {
      const project = await groupProject();
      const [a, b] = [await newUser(), await newUser()];
      const ok = await app.post(`/api/v4/projects/${project.id}/members`, { user_id: `${a.id}, ${b.id}`, access_level: 20 }, { token: 'maintainer' });
      expect(ok.status).toBe(201);
      expect(ok.body).toEqual({ status: 'success' });
      expect(levels((await app.get(`/api/v4/projects/${project.id}/members`, { token: 'maintainer' })).body)).toEqual({ [a.username]: 20, [b.username]: 20 });

      const c = await newUser();
      const partial = await app.post(
        `/api/v4/projects/${project.id}/members`,
        { username: `${c.username},nobody-at-all,${a.username}`, access_level: 20 },
        { token: 'maintainer' },
      );
      expect(partial.status).toBe(201);
      expect(partial.body).toEqual({ status: 'error', message: { 'nobody-at-all': 'User not found', [a.username]: 'Member already exists' } });
      expect(levels((await app.get(`/api/v4/projects/${project.id}/members`, { token: 'maintainer' })).body)[c.username]).toBe(20);
    });

    it('reads the project and the groups above it once for a whole list, not once per user', async () => {
      const sourceReads = async (path: string, count: number) => {
        const users = await Promise.all(Array.from({ length: count }, () => newUser()));
        const log = recordStatements(app.kernel);
        try {
          const sql = await log.during(async () => {
            const res = await app.post(path, { user_id: users.map((user) => user.id).join(','), access_level: 20 }, { token: 'maintainer' });
            expect(res.status).toBe(201);
          });
          return sql.filter((statement) => /from [`"](projects|namespaces)[`"]/.test(statement));
        } finally {
          log.stop();
        }
      };
      const project = await groupProject();
      const subgroup = (await app.post('/api/v4/groups', { name: unique('Sub'), path: unique('sub'), parent_id: app.group.id }, { token: 'owner' })).body;
      for (const path of [`/api/v4/projects/${project.id}/members`, `/api/v4/groups/${subgroup.id}/members`]) {
        const one = await sourceReads(path, 1);
        expect(await sourceReads(path, 3), path).toHaveLength(one.length);
        expect(one).toHaveLength(1);
      }
    });
  });

  describe("a level below the user's membership of a group above", () => {
    const refusal = (level: string) => `should be greater than or equal to ${level} inherited membership from group Test Group`;

    it('is refused when adding, alone (400) or in a list (by identifier), and when changing a member', async () => {
      const project = await groupProject();
      const [member, other] = [await newUser(), await newUser()];
      await app.post(`/api/v4/groups/${app.group.id}/members`, { user_id: member.id, access_level: 30 }, { token: 'owner' });
      const alone = await app.post(`/api/v4/projects/${project.id}/members`, { user_id: member.id, access_level: 20 }, { token: 'maintainer' });
      expect(alone.status).toBe(400);
      expect(alone.body).toEqual({ message: { access_level: [refusal('Developer')] } });
      const listed = await app.post(
        `/api/v4/projects/${project.id}/members`,
        { user_id: `${member.id},${other.id}`, access_level: 20 },
        { token: 'maintainer' },
      );
      expect(listed.body).toEqual({ status: 'error', message: { [String(member.id)]: `Access level ${refusal('Developer')}` } });
      expect(levels((await app.get(`/api/v4/projects/${project.id}/members`, { token: 'maintainer' })).body)).toEqual({ [other.username]: 20 });

      // Equal or higher is taken; lowering it again is refused and changes nothing.
      expect((await app.post(`/api/v4/projects/${project.id}/members`, { user_id: member.id, access_level: 30 }, { token: 'maintainer' })).status).toBe(201);
      const lowered = await app.put(`/api/v4/projects/${project.id}/members/${member.id}`, { access_level: 20 }, { token: 'maintainer' });
      expect(lowered.status).toBe(400);
      expect(lowered.body).toEqual({ message: { access_level: [refusal('Developer')] } });
      expect(levels((await app.get(`/api/v4/projects/${project.id}/members`, { token: 'maintainer' })).body)[member.username]).toBe(30);
    });

    it("looks at a subgroup's parents, not at the subgroup itself", async () => {
      const subgroup = (await app.post('/api/v4/groups', { name: unique('Sub'), path: unique('sub'), parent_id: app.group.id }, { token: 'owner' })).body;
      const user = await newUser();
      await app.post(`/api/v4/groups/${app.group.id}/members`, { user_id: user.id, access_level: 20 }, { token: 'owner' });
      const below = await app.post(`/api/v4/groups/${subgroup.id}/members`, { user_id: user.id, access_level: 10 }, { token: 'owner' });
      expect(below.body).toEqual({ message: { access_level: [refusal('Reporter')] } });
      expect((await app.post(`/api/v4/groups/${subgroup.id}/members`, { user_id: user.id, access_level: 40 }, { token: 'owner' })).status).toBe(201);
      // The subgroup's own membership does not bind the subgroup.
      expect((await app.put(`/api/v4/groups/${subgroup.id}/members/${user.id}`, { access_level: 20 }, { token: 'owner' })).status).toBe(200);
    });
  });

  describe('PUT members', () => {
    it('changes the level and expiry of a member', async () => {
      const project = await groupProject();
      const user = await newUser();
      await app.post(`/api/v4/projects/${project.id}/members`, { user_id: user.id, access_level: 20 }, { token: 'maintainer' });
      const expires = tomorrow();
      const res = await app.put(`/api/v4/projects/${project.id}/members/${user.id}`, { access_level: 30, expires_at: expires }, { token: 'maintainer' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(MEMBER_FIELDS);
      expect(res.body).toMatchObject({ id: user.id, access_level: 30, expires_at: expires });
    });

    it('answers 404 for a non-member, 400 for a bad level, 403 for raising to Owner or touching an owner', async () => {
      const project = await groupProject();
      const user = await newUser();
      await app.post(`/api/v4/projects/${project.id}/members`, { user_id: user.id, access_level: 20 }, { token: 'owner' });
      const missing = await app.put(`/api/v4/projects/${project.id}/members/${app.users.nonMember.id}`, { access_level: 30 }, { token: 'maintainer' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(RECORD_NOT_FOUND);
      const bad = await app.put(`/api/v4/projects/${project.id}/members/${user.id}`, { access_level: 99 }, { token: 'maintainer' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ message: { access_level: ['is not included in the list'] } });
      const raise = await app.put(`/api/v4/projects/${project.id}/members/${user.id}`, { access_level: 50 }, { token: 'maintainer' });
      expect(raise.status).toBe(403);
      expect(raise.body).toEqual(FORBIDDEN);
      const ownerOfGroup = await app.put(`/api/v4/groups/${app.group.id}/members/${app.users.owner.id}`, { access_level: 40 }, { token: 'maintainer' });
      expect(ownerOfGroup.status).toBe(403);
      const developer = await app.put(`/api/v4/projects/${project.id}/members/${user.id}`, { access_level: 10 }, { token: 'developer' });
      expect(developer.status).toBe(403);
    });

    it('refuses to demote the last owner of a group', async () => {
      const res = await app.put(`/api/v4/groups/${app.group.id}/members/${app.users.owner.id}`, { access_level: 40 }, { token: 'owner' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    });
  });

  describe('DELETE members', () => {
    it('lets a maintainer remove a member, and a member leave', async () => {
      const project = await groupProject();
      const [a, b] = [await newUser(), await newUser()];
      await app.post(`/api/v4/projects/${project.id}/members`, { user_id: `${a.id},${b.id}`, access_level: 20 }, { token: 'owner' });
      const removed = await app.delete(`/api/v4/projects/${project.id}/members/${a.id}`, { token: 'maintainer' });
      expect(removed.status).toBe(204);
      expect(removed.text).toBe('');
      expect((await app.get(`/api/v4/projects/${project.id}/members/${a.id}`, { token: 'maintainer' })).body).toEqual(RECORD_NOT_FOUND);

      const { secret } = await app.kernel.resolve(coreTokensRef).create({ userId: b.id, name: 't', scopes: ['api'] });
      const left = await app.delete(`/api/v4/projects/${project.id}/members/${b.id}`, { token: secret });
      expect(left.status).toBe(204);
      expect((await app.get(`/api/v4/projects/${project.id}`, { token: secret })).status).toBe(404);
    });

    it('answers 403 to a developer removing someone, 404 for non-members, 403 for the last group owner', async () => {
      const project = await groupProject();
      const user = await newUser();
      await app.post(`/api/v4/projects/${project.id}/members`, { user_id: user.id, access_level: 20 }, { token: 'owner' });
      const developer = await app.delete(`/api/v4/projects/${project.id}/members/${user.id}`, { token: 'developer' });
      expect(developer.status).toBe(403);
      expect(developer.body).toEqual(FORBIDDEN);
      const missing = await app.delete(`/api/v4/projects/${project.id}/members/${app.users.nonMember.id}`, { token: 'maintainer' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(RECORD_NOT_FOUND);
      const lastOwner = await app.delete(`/api/v4/groups/${app.group.id}/members/${app.users.owner.id}`, { token: 'owner' });
      expect(lastOwner.status).toBe(403);
      expect(lastOwner.body).toEqual(FORBIDDEN);
    });
  });
});
