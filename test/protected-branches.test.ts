import { AccessLevel } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';

/** A maintainer protects the release branches, and a developer reads the rules, through @gitbeaker/rest and plain requests. */
describe('Protected branches through @gitbeaker/rest', () => {
  let server: ListeningServer;
  let admin: Api;
  let developer: UserWithToken;
  let project: { id: number };
  const call = (method: string, path: string, token: string, body?: Record<string, unknown>, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/api/v4/projects/${project.id}/protected_branches${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json', ...headers },
      body: body && JSON.stringify(body),
    });

  beforeAll(async () => {
    server = await startListeningServer();
    admin = clientFor(server, server.rootToken);
    developer = await createUserWithToken(admin, server, 'dev');
    project = (await admin.Projects.create({ name: 'Product', initializeWithReadme: true })) as unknown as { id: number };
    await admin.ProjectMembers.add(project.id, AccessLevel.DEVELOPER, { userId: developer.id });
  });
  afterAll(() => server?.close());

  it('protects a pattern with the access levels asked for, maintainers for the rest', async () => {
    const branch = await admin.ProtectedBranches.protect(project.id, 'release/*', {
      pushAccessLevel: 0,
      mergeAccessLevel: 30,
      allowForcePush: false,
    });
    expect(branch).toMatchObject({
      name: 'release/*',
      push_access_levels: [{ access_level: 0, access_level_description: 'No one', user_id: null, group_id: null, deploy_key_id: null }],
      merge_access_levels: [{ access_level: 30, access_level_description: 'Developers + Maintainers' }],
      unprotect_access_levels: [{ access_level: 40, access_level_description: 'Maintainers' }],
      allow_force_push: false,
      code_owner_approval_required: false,
    });
  });

  it('refuses the same name twice with 409, and a developer with 403', async () => {
    expect(await failureOf(admin.ProtectedBranches.protect(project.id, 'release/*'))).toEqual({
      status: 409,
      description: "Protected branch 'release/*' already exists",
    });
    expect(await failureOf(developer.api.ProtectedBranches.protect(project.id, 'main'))).toMatchObject({ status: 403 });
  });

  it('lets a developer list, search and show the rules, the default branch protected from the start', async () => {
    expect((await developer.api.ProtectedBranches.all(project.id)).map((b) => b.name).sort()).toEqual(['main', 'release/*']);
    const searched = await call('GET', '?search=rel', developer.token);
    expect(searched.status).toBe(200);
    expect(((await searched.json()) as { name: string }[]).map((b) => b.name)).toEqual(['release/*']);
    expect(await developer.api.ProtectedBranches.show(project.id, 'main')).toMatchObject({ name: 'main', push_access_levels: [{ access_level: 40 }] });
    expect(await failureOf(developer.api.ProtectedBranches.show(project.id, 'nothing'))).toMatchObject({ status: 404 });
  });

  it('updates force push and adds, changes and removes access levels with PATCH', async () => {
    const before = await admin.ProtectedBranches.show(project.id, 'release/*');
    const pushRule = before.push_access_levels![0]!.id;
    const patched = await call('PATCH', '/release%2F*', server.rootToken, {
      allow_force_push: true,
      allowed_to_push: [{ id: pushRule, access_level: 40 }],
      allowed_to_merge: [{ access_level: 40 }],
    });
    expect(patched.status).toBe(200);
    const after = (await patched.json()) as Record<string, { id: number; access_level: number }[]> & { allow_force_push: boolean };
    expect(after.allow_force_push).toBe(true);
    expect(after.push_access_levels!.map((rule) => [rule.id, rule.access_level])).toEqual([[pushRule, 40]]);
    expect(after.merge_access_levels!.map((rule) => rule.access_level).sort()).toEqual([30, 40]);

    const taken = await call('PATCH', '/release%2F*', server.rootToken, { allowed_to_merge: [{ access_level: 40 }] });
    expect(taken.status).toBe(422);
    expect(await taken.json()).toEqual({ message: ['Merge access levels access level has already been taken'] });

    const developers = after.merge_access_levels!.find((rule) => rule.access_level === 30)!;
    const removed = await call('PATCH', '/release%2F*', server.rootToken, { allowed_to_merge: [{ id: developers.id, _destroy: true }] });
    expect(((await removed.json()) as typeof after).merge_access_levels!.map((rule) => rule.access_level)).toEqual([40]);
  });

  it('unprotects a branch, refusing a stale If-Unmodified-Since first', async () => {
    const stale = await call('DELETE', '/main', server.rootToken, undefined, { 'If-Unmodified-Since': new Date(Date.now() - 3_600_000).toUTCString() });
    expect(stale.status).toBe(412);
    expect(await failureOf(developer.api.ProtectedBranches.unprotect(project.id, 'main'))).toMatchObject({ status: 403 });

    await admin.ProtectedBranches.unprotect(project.id, 'main');
    expect((await admin.ProtectedBranches.all(project.id)).map((b) => b.name)).toEqual(['release/*']);
    expect(await failureOf(admin.ProtectedBranches.unprotect(project.id, 'main'))).toMatchObject({ status: 404 });
  });
});
