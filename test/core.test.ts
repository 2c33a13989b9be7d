import { AccessLevel } from '@gitbeaker/rest';
import { corePlugin } from '@forgekit/plugin-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';

/**
 * A team as an admin would set it up: users with passwords and tokens, a group, a
 * subgroup and a private project in it, members at several levels.
 */
describe('core through @gitbeaker/rest', () => {
  let server: ListeningServer;
  let admin: Api;
  let alice: UserWithToken; // maintainer of the project
  let carol: UserWithToken; // developer of the top-level group
  let bob: UserWithToken; // no memberships
  let group: { id: number; full_path: string };
  let subgroup: { id: number; full_path: string; parent_id: number | null };
  let project: { id: number; path_with_namespace: string };

  beforeAll(async () => {
    server = await startListeningServer([corePlugin]);
    admin = clientFor(server, server.rootToken);
    [alice, carol, bob] = await Promise.all(['alice', 'carol', 'bob'].map((name) => createUserWithToken(admin, server, name)));
    group = await admin.Groups.create('Acme', 'acme');
    subgroup = await admin.Groups.create('Platform', 'platform', { parentId: group.id });
    project = await admin.Projects.create({ name: 'API', path: 'api', namespaceId: subgroup.id });
    await admin.GroupMembers.add(group.id, AccessLevel.DEVELOPER, { userId: carol.id });
    await admin.ProjectMembers.add(project.id, AccessLevel.MAINTAINER, { userId: alice.id });
  });
  afterAll(() => server?.close());

  describe('users and tokens', () => {
    it('reads the current user', async () => {
      const user = await admin.Users.showCurrentUser();
      expect(user.username).toBe('root');
      expect(user.is_admin).toBe(true);
    });

    it('creates users with the admin fields GitLab returns to admins', async () => {
      const user = await admin.Users.show(alice.id);
      expect(user).toMatchObject({ id: alice.id, username: 'alice', name: 'Alice', email: 'alice@example.com', state: 'active', is_admin: false });
      expect((user.created_by as { username: string }).username).toBe('root');
    });

    it('acts as the user with the token an admin created for them', async () => {
      const me = await alice.api.Users.showCurrentUser();
      expect(me).toMatchObject({ id: alice.id, username: 'alice', email: 'alice@example.com' });
      expect(me).not.toHaveProperty('is_admin');
      const token = await alice.api.PersonalAccessTokens.show();
      expect(token).toMatchObject({ user_id: alice.id, name: 'alice-api', scopes: ['api'], active: true, revoked: false });
      expect(token).not.toHaveProperty('token');
    });

    it('answers 409 for a taken username and 400 for a short password', async () => {
      expect(await failureOf(admin.Users.create({ username: 'alice', name: 'Again', email: 'other@example.com', password: 'long-enough-1' }))).toEqual({
        status: 409,
        description: 'Username has already been taken',
      });
      expect(await failureOf(admin.Users.create({ username: 'dora', name: 'Dora', email: 'dora@example.com', password: 'short' }))).toEqual({
        status: 400,
        description: JSON.stringify({ password: ['is too short (minimum is 8 characters)'] }),
      });
    });

    it('answers 401 for an unknown token', async () => {
      const stranger = clientFor(server, 'fkpat-not-a-real-token');
      expect(await failureOf(stranger.Users.showCurrentUser())).toEqual({ status: 401, description: '401 Unauthorized' });
      expect(await failureOf(stranger.Projects.show(project.id))).toEqual({ status: 401, description: '401 Unauthorized' });
    });

    it('answers 403 when a non-admin creates a user or a token for someone', async () => {
      expect(await failureOf(alice.api.Users.create({ username: 'mallory', name: 'Mallory', email: 'm@example.com', password: 'long-enough-1' }))).toEqual({
        status: 403,
        description: '403 Forbidden',
      });
      expect(await failureOf(alice.api.Users.createPersonalAccessToken(bob.id, 'stolen', ['api']))).toEqual({ status: 403, description: '403 Forbidden' });
    });

    it('answers 403 insufficient_scope when a read_api token writes', async () => {
      const { token } = await admin.Users.createPersonalAccessToken(alice.id, 'read-only', ['read_api']);
      const readOnly = clientFor(server, token);
      expect((await readOnly.Projects.show(project.id)).id).toBe(project.id);
      expect(await failureOf(readOnly.Projects.create({ name: 'Nope' }))).toEqual({ status: 403, description: 'insufficient_scope' });
    });

    it('lets an admin act as another user with Sudo, and no one else', async () => {
      expect((await admin.Users.showCurrentUser({ sudo: 'alice' })).username).toBe('alice');
      expect((await admin.Projects.all({ sudo: alice.id })).map((p) => p.id)).toEqual([project.id]);
      expect(await failureOf(alice.api.Users.showCurrentUser({ sudo: 'root' }))).toEqual({
        status: 403,
        description: '403 Forbidden - Must be admin to use sudo',
      });
      expect(await failureOf(admin.Users.showCurrentUser({ sudo: 'nobody' }))).toEqual({
        status: 404,
        description: "404 User with ID or username 'nobody' Not Found",
      });
    });

    it('blocks and unblocks a user through the admin endpoints', async () => {
      const eve = await createUserWithToken(admin, server, 'eve');
      await admin.Users.block(eve.id);
      expect(await failureOf(eve.api.Users.showCurrentUser())).toEqual({ status: 403, description: '403 Forbidden - Your account has been blocked.' });
      await admin.Users.unblock(eve.id);
      expect((await eve.api.Users.showCurrentUser()).state).toBe('active');
    });

    it('stops accepting a token once it is revoked', async () => {
      const { id, token } = await admin.Users.createPersonalAccessToken(bob.id, 'short-lived', ['read_api']);
      const shortLived = clientFor(server, token);
      expect((await shortLived.Users.showCurrentUser()).username).toBe('bob');
      await admin.PersonalAccessTokens.remove({ tokenId: id });
      const failure = await failureOf(shortLived.Users.showCurrentUser());
      expect(failure.status).toBe(401);
      expect(failure.description).toBe('invalid_token');
    });

    it('rotates a token and refuses the old one', async () => {
      const frank = await createUserWithToken(admin, server, 'frank');
      const rotated = await frank.api.PersonalAccessTokens.rotate('self');
      expect(rotated.token).toMatch(/^fkpat-/);
      expect((await clientFor(server, rotated.token).Users.showCurrentUser()).username).toBe('frank');
      expect((await failureOf(frank.api.Users.showCurrentUser())).status).toBe(401);
    });

    it('answers /metadata and refuses non-admins the instance settings', async () => {
      expect(await alice.api.Metadata.show()).toMatchObject({ version: '17.11.0', enterprise: false });
      expect(await failureOf(alice.api.ApplicationSettings.show())).toEqual({ status: 403, description: '403 Forbidden' });
      expect((await admin.ApplicationSettings.show()).default_project_visibility).toBe('private');
    });
  });

  describe('groups and projects', () => {
    it('nests the subgroup and the project under the group path', async () => {
      expect(subgroup).toMatchObject({ full_path: 'acme/platform', parent_id: group.id });
      expect(project.path_with_namespace).toBe('acme/platform/api');
      expect((await admin.Groups.show('acme/platform')).id).toBe(subgroup.id);
    });

    it('lists subgroups and descendants, and refuses a taken group path', async () => {
      expect((await admin.Groups.allSubgroups(group.id)).map((g) => g.full_path)).toEqual(['acme/platform']);
      expect((await carol.api.Groups.allDescendantGroups('acme', {})).map((g) => g.full_path)).toEqual(['acme/platform']);
      expect((await admin.Groups.allProjects('acme/platform')).map((p) => p.id)).toEqual([project.id]);
      expect(await failureOf(admin.Groups.create('Platform', 'platform', { parentId: group.id }))).toEqual({
        status: 400,
        description: 'Failed to save group {:path=>["has already been taken"]}',
      });
    });

    it('deletes a group asynchronously with 202', async () => {
      const doomed = await admin.Groups.create('Doomed', 'doomed');
      expect(await failureOf(carol.api.Groups.remove(doomed.id))).toEqual({ status: 404, description: '404 Group Not Found' });
      expect(await admin.Groups.remove(doomed.id)).toEqual({ message: '202 Accepted' });
      expect(await failureOf(admin.Groups.show(doomed.id))).toEqual({ status: 404, description: '404 Group Not Found' });
    });

    it('finds a project by its URL-encoded full path', async () => {
      const shown = await alice.api.Projects.show('acme/platform/api');
      expect(shown).toMatchObject({ id: project.id, path_with_namespace: 'acme/platform/api', visibility: 'private' });
      expect((shown.namespace as { full_path: string }).full_path).toBe('acme/platform');
      expect((await alice.api.Projects.show('ACME/Platform/API')).id).toBe(project.id);
    });

    it('hides a private project from a non-member with 404 Project Not Found', async () => {
      expect(await failureOf(bob.api.Projects.show(project.id))).toEqual({ status: 404, description: '404 Project Not Found' });
      expect(await failureOf(bob.api.Projects.show('acme/platform/api'))).toEqual({ status: 404, description: '404 Project Not Found' });
      expect(await failureOf(bob.api.ProjectMembers.all(project.id))).toEqual({ status: 404, description: '404 Project Not Found' });
      expect(await failureOf(admin.Projects.show('acme/platform/missing'))).toEqual({ status: 404, description: '404 Project Not Found' });
    });

    it('lets an inherited developer read the project but not delete it (403)', async () => {
      const seen = await carol.api.Projects.show(project.id);
      expect(seen.permissions).toEqual({ project_access: null, group_access: { access_level: AccessLevel.DEVELOPER, notification_level: 3 } });
      expect(await failureOf(carol.api.Projects.remove(project.id))).toEqual({ status: 403, description: '403 Forbidden' });
      expect(await failureOf(alice.api.Projects.remove(project.id))).toEqual({ status: 403, description: '403 Forbidden' });
    });

    it('lets a user create and own a project in their namespace with their own token', async () => {
      const own = await bob.api.Projects.create({ name: 'Scratch' });
      expect(own).toMatchObject({ path_with_namespace: 'bob/scratch', visibility: 'private' });
      expect((own.owner as unknown as { username: string }).username).toBe('bob');
      expect(await failureOf(bob.api.Projects.create({ name: 'Scratch' }))).toEqual({
        status: 400,
        description: JSON.stringify({
          'project_namespace.name': ['has already been taken'],
          name: ['has already been taken'],
          path: ['has already been taken'],
        }),
      });
      const removed = await bob.api.Projects.remove(own.id);
      expect(removed).toEqual({ message: '202 Accepted' });
      expect(await failureOf(bob.api.Projects.show(own.id))).toEqual({ status: 404, description: '404 Project Not Found' });
    });

    it('refuses a subgroup under a group the caller cannot see (404) or may not add to (403)', async () => {
      expect(await failureOf(bob.api.Groups.create('Sneaky', 'sneaky', { parentId: group.id }))).toEqual({ status: 404, description: '404 Group Not Found' });
      expect(await failureOf(carol.api.Groups.create('Sneaky', 'sneaky', { parentId: group.id }))).toEqual({ status: 403, description: '403 Forbidden' });
    });

    it('refuses a project in a namespace the caller may not create in with 400 namespace is not valid', async () => {
      const notValid = { status: 400, description: JSON.stringify({ namespace: ['is not valid'] }) };
      expect(await failureOf(bob.api.Projects.create({ name: 'Sneaky', namespaceId: subgroup.id }))).toEqual(notValid);
      expect(await failureOf(alice.api.Projects.create({ name: 'Sneaky', namespaceId: subgroup.id }))).toEqual(notValid);
    });

    it('enforces the group project_creation_level with 400 namespace is not valid', async () => {
      const strict = await admin.Groups.create('Strict', 'strict', { projectCreationLevel: 'maintainer' });
      await admin.GroupMembers.add(strict.id, AccessLevel.DEVELOPER, { userId: carol.id });
      expect(await failureOf(carol.api.Projects.create({ name: 'Blocked', namespaceId: strict.id }))).toEqual({
        status: 400,
        description: JSON.stringify({ namespace: ['is not valid'] }),
      });
    });
  });

  describe('members', () => {
    it('lists direct and inherited members of the project', async () => {
      const direct = await admin.ProjectMembers.all(project.id);
      expect(direct.map((m) => [m.username, m.access_level])).toEqual([['alice', AccessLevel.MAINTAINER]]);
      const inherited = await alice.api.ProjectMembers.all(project.id, { includeInherited: true });
      expect(inherited.map((m) => [m.username, m.access_level]).sort()).toEqual(
        [
          ['alice', AccessLevel.MAINTAINER],
          ['carol', AccessLevel.DEVELOPER],
          ['root', AccessLevel.OWNER],
        ].sort(),
      );
    });

    it('shows inherited group members on the subgroup', async () => {
      expect((await admin.GroupMembers.all(subgroup.id)).map((m) => m.username)).toEqual(['root']);
      const all = await admin.GroupMembers.all(subgroup.id, { includeInherited: true });
      expect(all.map((m) => m.username).sort()).toEqual(['carol', 'root']);
      expect((await admin.GroupMembers.show(subgroup.id, carol.id, { includeInherited: true })).access_level).toBe(AccessLevel.DEVELOPER);
      expect(await failureOf(admin.GroupMembers.show(subgroup.id, carol.id))).toEqual({ status: 404, description: '404 Not found' });
    });

    it('answers 409 for an existing member and 404 for an unknown user', async () => {
      expect(await failureOf(admin.ProjectMembers.add(project.id, AccessLevel.DEVELOPER, { userId: alice.id }))).toEqual({
        status: 409,
        description: 'Member already exists',
      });
      expect(await failureOf(admin.ProjectMembers.add(project.id, AccessLevel.DEVELOPER, { userId: 999_999 }))).toEqual({
        status: 404,
        description: '404 User Not Found',
      });
    });

    it('adds by username, edits and removes a member', async () => {
      const added = await alice.api.ProjectMembers.add(project.id, AccessLevel.REPORTER, { username: 'bob' });
      expect(added).toMatchObject({ id: bob.id, username: 'bob', access_level: AccessLevel.REPORTER });
      expect((await bob.api.Projects.show(project.id)).id).toBe(project.id);
      const edited = await alice.api.ProjectMembers.edit(project.id, bob.id, AccessLevel.DEVELOPER, { expiresAt: '2999-12-31' });
      expect(edited).toMatchObject({ access_level: AccessLevel.DEVELOPER, expires_at: '2999-12-31' });
      expect(await failureOf(bob.api.ProjectMembers.edit(project.id, bob.id, AccessLevel.MAINTAINER))).toEqual({ status: 403, description: '403 Forbidden' });
      expect(await alice.api.ProjectMembers.remove(project.id, bob.id)).toBeNull();
      expect(await failureOf(admin.ProjectMembers.show(project.id, bob.id))).toEqual({ status: 404, description: '404 Not found' });
      expect(await failureOf(bob.api.Projects.show(project.id))).toEqual({ status: 404, description: '404 Project Not Found' });
    });

    it('edits and removes a group member, but never the last owner (403)', async () => {
      const gina = await createUserWithToken(admin, server, 'gina');
      expect(await admin.GroupMembers.add(subgroup.id, AccessLevel.GUEST, { userId: gina.id })).toMatchObject({
        username: 'gina',
        access_level: AccessLevel.GUEST,
      });
      expect((await admin.GroupMembers.edit(subgroup.id, gina.id, AccessLevel.REPORTER)).access_level).toBe(AccessLevel.REPORTER);
      expect((await gina.api.Groups.show('acme/platform')).id).toBe(subgroup.id);
      expect(await admin.GroupMembers.remove(subgroup.id, gina.id)).toBeNull();
      expect(await failureOf(gina.api.Groups.show('acme/platform'))).toEqual({ status: 404, description: '404 Group Not Found' });
      const root = await admin.Users.showCurrentUser();
      expect(await failureOf(admin.GroupMembers.remove(subgroup.id, root.id))).toEqual({ status: 403, description: '403 Forbidden' });
    });

    it('lists the owner of a personal project as its member', async () => {
      const own = await bob.api.Projects.create({ name: 'Notes' });
      expect((await bob.api.ProjectMembers.all(own.id)).map((m) => [m.username, m.access_level])).toEqual([['bob', AccessLevel.OWNER]]);
    });

    it('forbids a maintainer from granting Owner (403)', async () => {
      expect(await failureOf(alice.api.ProjectMembers.add(project.id, AccessLevel.OWNER, { userId: bob.id }))).toEqual({
        status: 403,
        description: '403 Forbidden',
      });
    });
  });

  describe('pagination the client follows', () => {
    const PAGER_PROJECTS = 7;
    let pager: UserWithToken;
    let created: number[];

    beforeAll(async () => {
      pager = await createUserWithToken(admin, server, 'pager');
      created = [];
      for (let i = 1; i <= PAGER_PROJECTS; i++) created.push((await pager.api.Projects.create({ name: `pager-${i}` })).id);
    });

    it('collects every page through Link rel="next"', async () => {
      const all = await pager.api.Projects.all({ perPage: 2 });
      expect(all).toHaveLength(PAGER_PROJECTS);
      expect(all.map((p) => p.id)).toEqual([...created].reverse());
      const searched = await admin.Projects.all({ perPage: 2, search: 'pager', orderBy: 'id', sort: 'asc' });
      expect(searched.map((p) => p.id)).toEqual(created);
    });

    it('collects every page when asked for keyset pagination', async () => {
      const all = await pager.api.Projects.all({ pagination: 'keyset', orderBy: 'id', sort: 'asc', perPage: 3 });
      expect(all.map((p) => p.id)).toEqual(created);
    });

    it('stops after maxPages', async () => {
      const two = await pager.api.Projects.all({ perPage: 2, maxPages: 2 });
      expect(two.map((p) => p.id)).toEqual([...created].reverse().slice(0, 4));
    });

    it('reports paginationInfo for one requested page', async () => {
      const { data, paginationInfo } = await pager.api.Projects.all({ perPage: 2, page: 2, pagination: 'offset', showExpanded: true });
      expect(data.map((p) => p.id)).toEqual([...created].reverse().slice(2, 4));
      expect(paginationInfo).toEqual({ total: PAGER_PROJECTS, next: 3, previous: 1, current: 2, perPage: 2, totalPages: 4 });
    });

    it('reports paginationInfo of the last page after following them all', async () => {
      const { data, paginationInfo } = await pager.api.Projects.all({ perPage: 3, pagination: 'offset', showExpanded: true });
      expect(data).toHaveLength(PAGER_PROJECTS);
      expect(paginationInfo).toEqual({ total: PAGER_PROJECTS, next: null, previous: 2, current: 3, perPage: 3, totalPages: 3 });
    });

    it('paginates member lists too', async () => {
      const { data, paginationInfo } = await admin.ProjectMembers.all(project.id, { includeInherited: true, perPage: 1, page: 3, showExpanded: true });
      expect(data).toHaveLength(1);
      expect(paginationInfo).toEqual({ total: 3, next: null, previous: 2, current: 3, perPage: 1, totalPages: 3 });
      expect(await admin.ProjectMembers.all(project.id, { includeInherited: true, perPage: 1 })).toHaveLength(3);
    });

    it('answers 400 for per_page=0 as Grape does', async () => {
      expect(await failureOf(pager.api.Projects.all({ perPage: 0, page: 1, pagination: 'offset' }))).toEqual({
        status: 400,
        description: 'per_page has a value not allowed',
      });
    });
  });
});
