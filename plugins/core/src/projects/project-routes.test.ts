import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { coreTokensRef, coreUsersRef } from '../contracts.js';

const PROJECT_BASIC = [
  'id',
  'description',
  'name',
  'name_with_namespace',
  'path',
  'path_with_namespace',
  'created_at',
  'default_branch',
  'tag_list',
  'topics',
  'ssh_url_to_repo',
  'http_url_to_repo',
  'web_url',
  'readme_url',
  'forks_count',
  'avatar_url',
  'star_count',
  'last_activity_at',
  'namespace',
];
/** The documented order of the full entity's notable fields (other fields sit between them). */
const PROJECT_LANDMARKS = ['_links', 'empty_repo', 'archived', 'visibility', 'creator_id', 'import_status', 'open_issues_count', 'shared_with_groups'];
const NAMESPACE_BASIC = ['id', 'name', 'path', 'kind', 'full_path', 'parent_id', 'avatar_url', 'web_url'];
const NOT_FOUND = { message: '404 Project Not Found' };
const FORBIDDEN = { message: '403 Forbidden' };
const NAMESPACE_NOT_VALID = { message: { namespace: ['is not valid'] } };
const PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";

/** Keys of `body` restricted to `expected`, in body order: equal to `expected` when the order is right and none is missing. */
const orderOf = (body: object, expected: string[]) => Object.keys(body).filter((key) => expected.includes(key));

describe('projects', () => {
  let app: TestApp;
  let serial = 0;

  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app?.close());

  const unique = (prefix: string) => `${prefix}-${(serial += 1)}`;

  async function newUserWithToken(extra: Record<string, unknown> = {}) {
    serial += 1;
    const user = await app.kernel
      .resolve(coreUsersRef)
      .create({ username: `proj-user-${serial}`, name: `Proj ${serial}`, email: `proj-${serial}@example.com`, ...extra });
    const token = (await app.kernel.resolve(coreTokensRef).create({ userId: user.id, name: 't', scopes: ['api'] })).secret;
    return { user, token };
  }

  async function createProject(token: string, body: Record<string, unknown>) {
    const res = await app.post('/api/v4/projects', body, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }

  describe('GET /projects/:id', () => {
    it('shows a project to a group member with permissions, fields in order', async () => {
      const res = await app.get(`/api/v4/projects/${app.project.id}`, { token: 'developer' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).slice(0, PROJECT_BASIC.length)).toEqual(PROJECT_BASIC);
      expect(orderOf(res.body, PROJECT_LANDMARKS)).toEqual(PROJECT_LANDMARKS);
      expect(Object.keys(res.body).at(-1)).toBe('permissions');
      expect(Object.keys(res.body.namespace)).toEqual(NAMESPACE_BASIC);
      expect(res.body).not.toHaveProperty('owner');
      expect(res.body).not.toHaveProperty('repository_storage');
      expect(res.body).toMatchObject({
        id: app.project.id,
        name: 'Test Project',
        name_with_namespace: 'Test Group / Test Project',
        path_with_namespace: 'test-group/test-project',
        visibility: 'private',
        archived: false,
        web_url: 'http://localhost/test-group/test-project',
        http_url_to_repo: 'http://localhost/test-group/test-project.git',
        ssh_url_to_repo: 'git@localhost:test-group/test-project.git',
        namespace: { id: app.group.id, kind: 'group', full_path: 'test-group', web_url: 'http://localhost/groups/test-group' },
        _links: { self: `http://localhost/api/v4/projects/${app.project.id}`, members: `http://localhost/api/v4/projects/${app.project.id}/members` },
      });
      expect(res.body.permissions).toEqual({ project_access: null, group_access: { access_level: 30, notification_level: 3 } });
    });

    it('finds a project by its encoded full path, case-insensitively', async () => {
      for (const path of ['test-group%2Ftest-project', 'TEST-GROUP%2FTest-Project']) {
        const res = await app.get(`/api/v4/projects/${path}`, { token: 'reporter' });
        expect(res.status, path).toBe(200);
        expect(res.body.id, path).toBe(app.project.id);
      }
    });

    it('hides a private project from non-members and anonymous callers with 404', async () => {
      for (const token of ['nonMember', undefined]) {
        const res = await app.get(`/api/v4/projects/${app.project.id}`, { token });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(NOT_FOUND);
      }
    });

    it('answers 404 for unknown ids and slash-less names', async () => {
      for (const id of ['999999', 'test-project', 'test-group%2Fmissing']) {
        const res = await app.get(`/api/v4/projects/${id}`, { token: 'admin' });
        expect(res.status, id).toBe(404);
        expect(res.body, id).toEqual(NOT_FOUND);
      }
    });

    it('shows admins every project, with repository_storage', async () => {
      const res = await app.get(`/api/v4/projects/${app.project.id}`, { token: 'admin' });
      expect(res.status).toBe(200);
      expect(res.body.repository_storage).toBe('default');
      expect(res.body.permissions).toEqual({ project_access: null, group_access: null });
    });

    it('shows a public project to anonymous callers without permissions', async () => {
      const project = await createProject('owner', { name: unique('Public One'), visibility: 'public' });
      const res = await app.get(`/api/v4/projects/${project.id}`);
      expect(res.status).toBe(200);
      expect(res.body.visibility).toBe('public');
      expect(res.body).not.toHaveProperty('permissions');
    });

    it('shows an internal project to signed-in users but not to external users or anonymous callers', async () => {
      const project = await createProject('owner', { name: unique('Internal One'), visibility: 'internal' });
      expect((await app.get(`/api/v4/projects/${project.id}`, { token: 'nonMember' })).status).toBe(200);
      const external = await newUserWithToken({ external: true });
      expect((await app.get(`/api/v4/projects/${project.id}`, { token: external.token })).body).toEqual(NOT_FOUND);
      expect((await app.get(`/api/v4/projects/${project.id}`)).body).toEqual(NOT_FOUND);
    });

    it('shows the owner of a personal project', async () => {
      const project = await createProject('guest', { name: unique('Personal') });
      const res = await app.get(`/api/v4/projects/${project.id}`, { token: 'guest' });
      expect(Object.keys(res.body.owner)).toEqual(['id', 'username', 'public_email', 'name', 'state', 'locked', 'avatar_url', 'web_url']);
      expect(res.body.owner).toMatchObject({ id: app.users.guest.id, username: 'guest' });
      expect(orderOf(res.body, ['visibility', 'owner', 'creator_id'])).toEqual(['visibility', 'owner', 'creator_id']);
      expect(res.body.permissions).toEqual({ project_access: { access_level: 50, notification_level: 3 }, group_access: null });
      expect(res.body.namespace).toMatchObject({ kind: 'user', full_path: 'guest', web_url: 'http://localhost/guest' });
    });
  });

  describe('POST /projects', () => {
    it('creates a personal project, deriving the path from the name', async () => {
      const res = await app.post('/api/v4/projects', { name: 'My Shiny Project', description: 'Shiny', topics: 'a, b' }, { token: 'maintainer' });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).slice(0, PROJECT_BASIC.length)).toEqual(PROJECT_BASIC);
      expect(res.body).not.toHaveProperty('permissions');
      expect(res.body).toMatchObject({
        name: 'My Shiny Project',
        path: 'my-shiny-project',
        path_with_namespace: 'maintainer/my-shiny-project',
        description: 'Shiny',
        topics: ['a', 'b'],
        tag_list: ['a', 'b'],
        visibility: 'private',
        creator_id: app.users.maintainer.id,
        owner: { id: app.users.maintainer.id },
      });
    });

    it('derives the name from the path', async () => {
      const res = await app.post('/api/v4/projects', { path: 'only-path' }, { token: 'reporter' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name: 'only-path', path: 'only-path' });
    });

    it('tells other plugins about the new project', async () => {
      const seen: unknown[] = [];
      app.kernel.events.on('project.created', (payload) => void seen.push(payload));
      const project = await createProject('developer', { name: unique('Evented'), initialize_with_readme: true });
      expect(seen).toEqual([{ projectId: project.id, initializeWithReadme: true, userId: app.users.developer.id }]);
    });

    it('creates a project in a group for a developer; any namespace the caller may not use is not valid', async () => {
      const project = await createProject('developer', { name: unique('Group Project'), namespace_id: app.group.id });
      expect(project.namespace.id).toBe(app.group.id);
      const attempts = [
        ['reporter', app.group.id],
        ['nonMember', app.group.id],
        ['owner', 999999],
        ['owner', app.users.guest.namespaceId],
      ] as const;
      for (const [token, namespaceId] of attempts) {
        const res = await app.post('/api/v4/projects', { name: 'Nope', namespace_id: namespaceId }, { token });
        expect(res.status, `${token} ${namespaceId}`).toBe(400);
        expect(res.body, `${token} ${namespaceId}`).toEqual(NAMESPACE_NOT_VALID);
      }
      const admin = await createProject('admin', { name: unique('For Guest'), namespace_id: app.users.guest.namespaceId });
      expect(admin.path_with_namespace).toMatch(/^guest\//);
    });

    it('follows the group project_creation_level', async () => {
      const group = (await app.post('/api/v4/groups', { name: 'Strict', path: unique('strict'), project_creation_level: 'maintainer' }, { token: 'owner' }))
        .body;
      await app.post(`/api/v4/groups/${group.id}/members`, { user_id: app.users.developer.id, access_level: 30 }, { token: 'owner' });
      const developer = await app.post('/api/v4/projects', { name: 'Dev', namespace_id: group.id }, { token: 'developer' });
      expect(developer.status).toBe(400);
      expect(developer.body).toEqual(NAMESPACE_NOT_VALID);
      expect((await app.post('/api/v4/projects', { name: 'Owner', namespace_id: group.id }, { token: 'owner' })).status).toBe(201);
      await app.put(`/api/v4/groups/${group.id}`, { project_creation_level: 'noone' }, { token: 'owner' });
      expect((await app.post('/api/v4/projects', { name: 'Owner Again', namespace_id: group.id }, { token: 'owner' })).body).toEqual(NAMESPACE_NOT_VALID);
      expect((await app.post('/api/v4/projects', { name: 'Admin', namespace_id: group.id }, { token: 'admin' })).status).toBe(201);
    });

    it('answers duplicates with the three taken messages', async () => {
      const res = await app.post('/api/v4/projects', { name: 'Test Project', namespace_id: app.group.id }, { token: 'owner' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: { 'project_namespace.name': ['has already been taken'], name: ['has already been taken'], path: ['has already been taken'] },
      });
      const pathOnly = await app.post('/api/v4/projects', { name: 'Other Name', path: 'TEST-PROJECT', namespace_id: app.group.id }, { token: 'owner' });
      expect(pathOnly.body).toEqual({ message: { path: ['has already been taken'] } });
    });

    it('answers bad paths, names and visibility with model errors', async () => {
      const path = await app.post('/api/v4/projects', { name: 'Bad Path', path: 'bad.atom' }, { token: 'owner' });
      expect(path.status).toBe(400);
      expect(path.body).toEqual({ message: { path: [PATH_MESSAGE] } });
      const name = await app.post('/api/v4/projects', { name: '-dash first', path: 'dash-first' }, { token: 'owner' });
      expect(name.body).toEqual({
        message: { name: ["can contain only letters, digits, emoji, '_', '.', '+', dashes, or spaces. It must start with a letter, digit, emoji, or '_'."] },
      });
      const visibility = await app.post('/api/v4/projects', { name: 'Too Loud', namespace_id: app.group.id, visibility: 'public' }, { token: 'owner' });
      expect(visibility.body).toEqual({ message: { visibility_level: ['public is not allowed in a private group.'] } });
    });

    it('answers parameter errors with the framework shape', async () => {
      const none = await app.post('/api/v4/projects', { description: 'nameless' }, { token: 'owner' });
      expect(none.status).toBe(400);
      expect(none.body).toEqual({ error: 'name, path are missing, at least one parameter must be provided' });
      const visibility = await app.post('/api/v4/projects', { name: 'x', visibility: 'hidden' }, { token: 'owner' });
      expect(visibility.body).toEqual({ error: 'visibility does not have a valid value' });
      const namespace = await app.post('/api/v4/projects', { name: 'x', namespace_id: 'abc' }, { token: 'owner' });
      expect(namespace.body).toEqual({ error: 'namespace_id is invalid' });
    });

    it('enforces the personal project limit with the framework error list', async () => {
      const limited = await newUserWithToken({ projectsLimit: 1 });
      await createProject(limited.token, { name: 'First' });
      const second = await app.post('/api/v4/projects', { name: 'Second' }, { token: limited.token });
      expect(second.status).toBe(403);
      expect(second.body).toEqual({ error: ['Your project limit is 1 projects! Please contact your administrator to increase it'] });
      const none = await newUserWithToken({ projectsLimit: 0 });
      const refused = await app.post('/api/v4/projects', { name: 'Any' }, { token: none.token });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ error: ['Personal project creation is not allowed. Please contact your administrator with questions'] });
    });

    it('uses the instance default visibility, lowered to the group', async () => {
      await app.put('/api/v4/application/settings', { default_project_visibility: 'internal' }, { token: 'admin' });
      try {
        expect((await createProject('owner', { name: unique('Default Internal') })).visibility).toBe('internal');
        expect((await createProject('owner', { name: unique('In Private Group'), namespace_id: app.group.id })).visibility).toBe('private');
      } finally {
        await app.put('/api/v4/application/settings', { default_project_visibility: 'private' }, { token: 'admin' });
      }
    });

    it('lets only admins choose the repository storage', async () => {
      const mine = await createProject('owner', { name: unique('Storage'), repository_storage: 'fast' });
      expect((await app.get(`/api/v4/projects/${mine.id}`, { token: 'admin' })).body.repository_storage).toBe('default');
      const admin = await createProject('admin', { name: unique('Admin Storage'), repository_storage: 'fast' });
      expect(admin.repository_storage).toBe('fast');
    });

    it('requires authentication', async () => {
      const res = await app.post('/api/v4/projects', { name: 'Anonymous' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: '401 Unauthorized' });
    });
  });

  describe('PUT /projects/:id', () => {
    it('lets a maintainer update the project', async () => {
      const project = await createProject('owner', { name: unique('Editable'), namespace_id: app.group.id });
      const seen: unknown[] = [];
      app.kernel.events.on('project.updated', (payload) => void seen.push(payload));
      const res = await app.put(
        `/api/v4/projects/${project.id}`,
        { name: 'Edited', description: 'new', default_branch: 'trunk', issues_enabled: false, merge_method: 'ff' },
        { token: 'maintainer' },
      );
      expect(res.status).toBe(200);
      expect(res.body).not.toHaveProperty('permissions');
      expect(res.body).toMatchObject({
        name: 'Edited',
        path: project.path,
        description: 'new',
        default_branch: 'trunk',
        issues_enabled: false,
        issues_access_level: 'disabled',
        merge_method: 'ff',
      });
      expect(seen).toContainEqual({ projectId: project.id });
      expect((await app.get(`/api/v4/projects/${project.id}`, { token: 'guest' })).body.name).toBe('Edited');
    });

    it('refuses developers with 403 and strangers with 404', async () => {
      const developer = await app.put(`/api/v4/projects/${app.project.id}`, { description: 'x' }, { token: 'developer' });
      expect(developer.status).toBe(403);
      expect(developer.body).toEqual(FORBIDDEN);
      const stranger = await app.put(`/api/v4/projects/${app.project.id}`, { description: 'x' }, { token: 'nonMember' });
      expect(stranger.status).toBe(404);
      expect(stranger.body).toEqual(NOT_FOUND);
    });

    it('answers a taken name with 400', async () => {
      const project = await createProject('owner', { name: unique('Rename Me'), namespace_id: app.group.id });
      const res = await app.put(`/api/v4/projects/${project.id}`, { name: 'test project' }, { token: 'owner' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { 'project_namespace.name': ['has already been taken'], name: ['has already been taken'] } });
    });
  });

  describe('archive and unarchive', () => {
    it('archives and unarchives with 201', async () => {
      const project = await createProject('owner', { name: unique('Archivable'), namespace_id: app.group.id });
      const archived = await app.post(`/api/v4/projects/${project.id}/archive`, undefined, { token: 'maintainer' });
      expect(archived.status).toBe(201);
      expect(archived.body.archived).toBe(true);
      const unarchived = await app.post(`/api/v4/projects/${project.id}/unarchive`, undefined, { token: 'maintainer' });
      expect(unarchived.status).toBe(201);
      expect(unarchived.body.archived).toBe(false);
    });

    it('refuses developers', async () => {
      const res = await app.post(`/api/v4/projects/${app.project.id}/archive`, undefined, { token: 'developer' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    });
  });

  describe('DELETE /projects/:id', () => {
    it('lets an owner delete a project: 202 Accepted', async () => {
      const project = await createProject('owner', { name: unique('Deletable'), namespace_id: app.group.id });
      const seen: unknown[] = [];
      app.kernel.events.on('project.deleted', (payload) => void seen.push(payload));
      const res = await app.delete(`/api/v4/projects/${project.id}`, { token: 'owner' });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ message: '202 Accepted' });
      expect(seen).toEqual([{ projectId: project.id }]);
      expect((await app.get(`/api/v4/projects/${project.id}`, { token: 'owner' })).body).toEqual(NOT_FOUND);
    });

    it('refuses maintainers and developers with 403, strangers with 404', async () => {
      for (const token of ['maintainer', 'developer']) {
        const res = await app.delete(`/api/v4/projects/${app.project.id}`, { token });
        expect(res.status, token).toBe(403);
        expect(res.body, token).toEqual(FORBIDDEN);
      }
      const stranger = await app.delete(`/api/v4/projects/${app.project.id}`, { token: 'nonMember' });
      expect(stranger.status).toBe(404);
      expect(stranger.body).toEqual(NOT_FOUND);
    });
  });
});
