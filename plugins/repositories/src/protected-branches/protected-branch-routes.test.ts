import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { branchProtectionRef } from '../contracts.js';
import { createProtectedBranchStore } from './protected-branch-store.js';
import { commitFiles, createRepoTestApp } from '../testing/repo-test-app.js';

const MAINTAINERS = { access_level: 40, access_level_description: 'Maintainers', user_id: null, group_id: null };
const DEVELOPERS = { access_level: 30, access_level_description: 'Developers + Maintainers', user_id: null, group_id: null };

describe('protected branches', () => {
  let app: TestApp;
  let base: string;
  let repo: string;

  beforeAll(async () => {
    app = await createRepoTestApp();
    base = `/api/v4/projects/${app.project.id}/protected_branches`;
    repo = `/api/v4/projects/${app.project.id}/repository`;
    await commitFiles(app, app.project.id, { 'README.md': '# Hi\n' });
  });
  afterAll(() => app.close());

  const patch = (path: string, body: unknown, options: { token: string }) => app.request('PATCH', path, { ...options, body });

  it('protects the default branch when its first commit lands, as the instance default says', async () => {
    const res = await app.get(base, { token: 'maintainer' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total')).toBe('1');
    expect(res.body).toEqual([
      {
        id: expect.any(Number),
        name: 'main',
        push_access_levels: [{ id: expect.any(Number), ...MAINTAINERS, deploy_key_id: null }],
        merge_access_levels: [{ id: expect.any(Number), ...MAINTAINERS }],
        unprotect_access_levels: [{ id: expect.any(Number), ...MAINTAINERS }],
        allow_force_push: false,
        code_owner_approval_required: false,
      },
    ]);
  });

  it('keeps Developers off the protected default branch through the commits and files API', async () => {
    const commit = { branch: 'main', commit_message: 'm', actions: [{ action: 'create', file_path: 'dev.txt', content: 'x' }] };
    expect(await app.post(`${repo}/commits`, commit, { token: 'developer' })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - You are not allowed to push into this branch' },
    });
    expect(await app.post(`${repo}/files/dev.txt`, { branch: 'main', content: 'x', commit_message: 'm' }, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { message: 'You are not allowed to push into this branch' },
    });
    expect(await app.post(`${repo}/commits`, { ...commit, branch: 'feature', start_branch: 'main' }, { token: 'developer' })).toMatchObject({ status: 201 });
    expect(await app.post(`${repo}/commits`, commit, { token: 'maintainer' })).toMatchObject({ status: 201 });
  });

  it('shows protection on branches, and whether the caller may push', async () => {
    const asDeveloper = await app.get(`${repo}/branches`, { token: 'developer' });
    const byName = Object.fromEntries(asDeveloper.body.map((branch: { name: string }) => [branch.name, branch]));
    expect(byName.main).toMatchObject({ protected: true, developers_can_push: false, developers_can_merge: false, can_push: false, default: true });
    expect(byName.feature).toMatchObject({ protected: false, developers_can_push: false, developers_can_merge: false, can_push: true });
    expect((await app.get(`${repo}/branches/main`, { token: 'maintainer' })).body).toMatchObject({ protected: true, can_push: true });
  });

  it('protects a wildcard with chosen levels, once, for Maintainers only', async () => {
    expect(await app.post(base, { name: 'release/*' }, { token: 'developer' })).toMatchObject({ status: 403 });
    const res = await app.post(base, { name: 'release/*', push_access_level: 30, merge_access_level: 30, allow_force_push: true }, { token: 'maintainer' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'release/*',
      push_access_levels: [{ ...DEVELOPERS, deploy_key_id: null }],
      merge_access_levels: [DEVELOPERS],
      unprotect_access_levels: [MAINTAINERS],
      allow_force_push: true,
      code_owner_approval_required: false,
    });
    expect(await app.post(base, { name: 'release/*' }, { token: 'maintainer' })).toMatchObject({
      status: 409,
      body: { message: "Protected branch 'release/*' already exists" },
    });
    expect(await app.post(base, { name: '' }, { token: 'maintainer' })).toMatchObject({ status: 422, body: { message: ["Name can't be blank"] } });
    expect(await app.post(base, { name: 'x', push_access_level: 20 }, { token: 'maintainer' })).toMatchObject({
      status: 400,
      body: { error: 'push_access_level does not have a valid value' },
    });
    expect(
      await app.post(
        base,
        { name: 'hotfix', allowed_to_push: [{ access_level: 0 }], allowed_to_merge: [{ access_level: 30 }, { access_level: 40 }] },
        { token: 'maintainer' },
      ),
    ).toMatchObject({
      status: 201,
      body: { push_access_levels: [{ access_level: 0, access_level_description: 'No one' }], merge_access_levels: [DEVELOPERS, MAINTAINERS] },
    });
  });

  it('shows one (names URL-encoded), lists with search and pagination, and answers 404 Not found', async () => {
    expect(await app.get(`${base}/release%2F*`, { token: 'reporter' })).toMatchObject({ status: 200, body: { name: 'release/*' } });
    expect(await app.get(`${base}/nope`, { token: 'maintainer' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect((await app.get(base, { token: 'developer', query: { search: 'REL' } })).body.map((b: { name: string }) => b.name)).toEqual(['release/*']);
    const paged = await app.get(base, { token: 'developer', query: { per_page: 1, page: 2 } });
    expect(paged.body.map((b: { name: string }) => b.name)).toEqual(['release/*']);
    expect(paged.headers.get('x-total')).toBe('3');
    expect(await app.get(base, { token: 'guest' })).toMatchObject({ status: 403 });
    expect(await app.get(base, { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
  });

  it('updates force push and access levels, with GitLab’s refusals', async () => {
    const url = `${base}/release%2F*`;
    expect(await patch(url, { allow_force_push: false }, { token: 'developer' })).toMatchObject({ status: 403 });
    expect(await patch(url, { allow_force_push: null }, { token: 'maintainer' })).toMatchObject({ status: 400, body: { error: 'allow_force_push is empty' } });
    const current = (await app.get(url, { token: 'maintainer' })).body;
    expect(await patch(url, { allowed_to_push: [{ access_level: 30 }] }, { token: 'maintainer' })).toMatchObject({
      status: 422,
      body: { message: ['Push access levels access level has already been taken'] },
    });
    const res = await patch(
      url,
      {
        allow_force_push: false,
        allowed_to_push: [{ id: current.push_access_levels[0].id, _destroy: true }, { access_level: 40 }],
        allowed_to_merge: [{ id: current.merge_access_levels[0].id, access_level: 40 }],
      },
      { token: 'maintainer' },
    );
    expect(res).toMatchObject({
      status: 200,
      body: { allow_force_push: false, push_access_levels: [MAINTAINERS], merge_access_levels: [{ id: current.merge_access_levels[0].id, ...MAINTAINERS }] },
    });
    expect(await patch(`${base}/nope`, { allow_force_push: true }, { token: 'maintainer' })).toMatchObject({ status: 404 });
  });

  it('guards protected branches against Developers: creating, deleting, and the merged-branches sweep', async () => {
    expect(await app.post(`${repo}/branches`, { branch: 'release/1', ref: 'main' }, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { message: 'You are not allowed to create protected branches on this project.' },
    });
    expect(await app.post(`${repo}/branches`, { branch: 'release/1', ref: 'main' }, { token: 'maintainer' })).toMatchObject({
      status: 201,
      body: { protected: true },
    });
    await app.post(`${repo}/branches`, { branch: 'merged-topic', ref: 'main' }, { token: 'developer' });
    await commitFiles(app, app.project.id, { 'more.txt': 'more\n' });
    expect(await app.delete(`${repo}/branches/release%2F1`, { token: 'developer' })).toMatchObject({
      status: 400,
      body: {
        message: 'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.',
      },
    });
    expect(await app.delete(`${repo}/merged_branches`, { token: 'reporter' })).toMatchObject({ status: 403 });
    expect(await app.delete(`${repo}/merged_branches`, { token: 'developer' })).toMatchObject({ status: 202, body: { message: '202 Accepted' } });
    const names = (await app.get(`${repo}/branches`, { token: 'developer' })).body.map((branch: { name: string }) => branch.name);
    expect(names).toEqual(['feature', 'main', 'release/1']);
    expect(await app.delete(`${repo}/branches/release%2F1`, { token: 'maintainer' })).toMatchObject({ status: 204 });
  });

  it('protects and unprotects through the older branch calls', async () => {
    expect(await app.put(`${repo}/branches/feature/protect`, { developers_can_push: true }, { token: 'developer' })).toMatchObject({ status: 403 });
    expect(await app.put(`${repo}/branches/feature/protect`, { developers_can_push: true }, { token: 'maintainer' })).toMatchObject({
      status: 200,
      body: { name: 'feature', protected: true, developers_can_push: true, developers_can_merge: false },
    });
    expect((await app.get(`${base}/feature`, { token: 'maintainer' })).body).toMatchObject({
      push_access_levels: [DEVELOPERS],
      merge_access_levels: [MAINTAINERS],
    });
    expect(await app.put(`${repo}/branches/feature/unprotect`, {}, { token: 'maintainer' })).toMatchObject({ status: 200, body: { protected: false } });
  });

  it('unprotects, refusing a stale If-Unmodified-Since', async () => {
    const url = `${base}/hotfix`;
    expect(await app.delete(url, { token: 'developer' })).toMatchObject({ status: 403 });
    expect(await app.delete(url, { token: 'maintainer', headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' } })).toMatchObject({
      status: 412,
      body: { message: '412 Precondition Failed' },
    });
    expect((await app.delete(url, { token: 'maintainer' })).status).toBe(204);
    expect(await app.delete(url, { token: 'maintainer' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });

  it('answers other plugins through branchProtectionRef', async () => {
    const protection = app.kernel.resolve(branchProtectionRef);
    const project = (await createProtectedBranchStore(app.kernel.database).find(app.project.id, 'main'))!;
    expect(project.name).toBe('main');
    const { coreProjectsRef } = await import('@forgekit/plugin-core');
    const row = (await app.kernel.resolve(coreProjectsRef).findById(app.project.id))!;
    const developer = { ...app.users.developer, isAdmin: false, external: false, state: 'active' } as never;
    const maintainer = { ...app.users.maintainer, isAdmin: false, external: false, state: 'active' } as never;
    expect(await protection.isProtected(row, 'main')).toBe(true);
    expect(await protection.isProtected(row, 'feature')).toBe(false);
    expect(await protection.canPush(developer, row, 'main')).toBe(false);
    expect(await protection.canPush(maintainer, row, 'main')).toBe(true);
    expect(await protection.canMerge(developer, row, 'main')).toBe(false);
    expect(await protection.canForcePush(row, 'main')).toBe(false);
    expect(await protection.canForcePush(row, 'feature')).toBe(true);
  });
});

describe('default branch protection settings', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createRepoTestApp();
  });
  afterAll(() => app.close());

  const protectedNames = async (projectId: number) =>
    (await app.get(`/api/v4/projects/${projectId}/protected_branches`, { token: 'admin' })).body.map((branch: { name: string }) => branch.name);

  it('defaults to fully protected, and keeps the level and the hash in step', async () => {
    const settings = await app.get('/api/v4/application/settings', { token: 'admin' });
    expect(settings.body).toMatchObject({
      default_branch_protection: 2,
      default_branch_protection_defaults: { allowed_to_push: [{ access_level: 40 }], allowed_to_merge: [{ access_level: 40 }], allow_force_push: false },
    });
    const partial = await app.put('/api/v4/application/settings', { default_branch_protection: 1 }, { token: 'admin' });
    expect(partial.body).toMatchObject({
      default_branch_protection: 1,
      default_branch_protection_defaults: { allowed_to_push: [{ access_level: 30 }], allowed_to_merge: [{ access_level: 40 }] },
    });
    const hash = await app.put(
      '/api/v4/application/settings',
      { default_branch_protection_defaults: { allowed_to_push: [{ access_level: 30 }], allowed_to_merge: [{ access_level: 30 }], allow_force_push: true } },
      { token: 'admin' },
    );
    expect(hash.body).toMatchObject({ default_branch_protection: 0 });
    expect(await app.put('/api/v4/application/settings', { default_branch_protection: 7 }, { token: 'admin' })).toMatchObject({ status: 400 });
  });

  it('leaves a personal project’s default branch alone when the instance does not protect, and protects it otherwise', async () => {
    const open = await app.post('/api/v4/projects', { name: 'Open', initialize_with_readme: true }, { token: 'developer' });
    expect(await protectedNames(open.body.id)).toEqual([]);
    await app.put('/api/v4/application/settings', { default_branch_protection: 3 }, { token: 'admin' });
    const guarded = await app.post('/api/v4/projects', { name: 'Guarded', initialize_with_readme: true }, { token: 'developer' });
    const rule = (await app.get(`/api/v4/projects/${guarded.body.id}/protected_branches/main`, { token: 'developer' })).body;
    expect(rule).toMatchObject({ push_access_levels: [{ access_level: 40 }], merge_access_levels: [{ access_level: 30 }], allow_force_push: false });
  });

  it('follows the group’s own default branch protection for its projects', async () => {
    expect((await app.put(`/api/v4/groups/${app.group.id}`, { default_branch_protection: 0 }, { token: 'owner' })).status).toBe(200);
    const project = await app.post('/api/v4/projects', { name: 'In group', namespace_id: app.group.id, initialize_with_readme: true }, { token: 'owner' });
    expect(await protectedNames(project.body.id)).toEqual([]);
    await app.put(`/api/v4/groups/${app.group.id}`, { default_branch_protection: 4 }, { token: 'owner' });
    // Developers may make the first push of an empty project, which is then protected.
    const empty = await app.post('/api/v4/projects', { name: 'Initial push', namespace_id: app.group.id }, { token: 'owner' });
    const first = { branch: 'main', commit_message: 'First', actions: [{ action: 'create', file_path: 'a.txt', content: 'a' }] };
    expect((await app.post(`/api/v4/projects/${empty.body.id}/repository/commits`, first, { token: 'developer' })).status).toBe(201);
    expect(await protectedNames(empty.body.id)).toEqual(['main']);
    expect((await app.post(`/api/v4/projects/${empty.body.id}/repository/commits`, first, { token: 'developer' })).status).toBe(403);
  });

  it('keeps Developers from the first commit of an empty, fully protected project', async () => {
    await app.put(`/api/v4/groups/${app.group.id}`, { default_branch_protection: 2 }, { token: 'owner' });
    const empty = await app.post('/api/v4/projects', { name: 'Empty', namespace_id: app.group.id }, { token: 'owner' });
    const first = { branch: 'main', commit_message: 'First', actions: [{ action: 'create', file_path: 'a.txt', content: 'a' }] };
    expect(await app.post(`/api/v4/projects/${empty.body.id}/repository/commits`, first, { token: 'developer' })).toMatchObject({ status: 403 });
    expect(await app.post(`/api/v4/projects/${empty.body.id}/repository/branches`, { branch: 'topic', ref: 'main' }, { token: 'developer' })).toMatchObject({
      status: 400,
    });
    expect((await app.post(`/api/v4/projects/${empty.body.id}/repository/commits`, first, { token: 'maintainer' })).status).toBe(201);
  });

  it('removes a deleted project’s protected branches', async () => {
    const project = await app.post('/api/v4/projects', { name: 'Doomed', namespace_id: app.group.id, initialize_with_readme: true }, { token: 'owner' });
    expect(await protectedNames(project.body.id)).toEqual(['main']);
    expect((await app.delete(`/api/v4/projects/${project.body.id}`, { token: 'owner' })).status).toBe(202);
    const left = await createProtectedBranchStore(app.kernel.database).forProject(project.body.id);
    expect(left).toEqual([]);
  });
});
