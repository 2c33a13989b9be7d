import { AccessLevel } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';
import { rest } from './support/rest.js';

/** An administrator edits, deactivates and reactivates a user; users read groups, namespaces, members and their tokens. */
describe('accounts, groups and namespaces through @gitbeaker/rest', () => {
  let server: ListeningServer;
  let admin: Api;
  let carol: UserWithToken;
  let group: { id: number; full_path: string };
  let projectId: number;
  const call = (method: string, path: string, token: string | null, body?: unknown) => rest(server, method, path, token, body);

  beforeAll(async () => {
    server = await startListeningServer();
    admin = clientFor(server, server.rootToken);
    carol = await createUserWithToken(admin, server, 'carol');
    group = (await admin.Groups.create('Design', 'design')) as unknown as typeof group;
    await admin.GroupMembers.add(group.id, AccessLevel.REPORTER, { userId: carol.id });
    projectId = ((await admin.Projects.create({ name: 'Mockups', namespaceId: group.id })) as unknown as { id: number }).id;
  });
  afterAll(() => server?.close());

  it('edits a user, and deactivates and reactivates them', async () => {
    const edited = await admin.Users.edit(carol.id, { name: 'Carol Danvers', bio: 'Designer' });
    expect(edited).toMatchObject({ id: carol.id, name: 'Carol Danvers', bio: 'Designer' });
    expect(await failureOf(carol.api.Users.edit(carol.id, { name: 'Someone else' }))).toMatchObject({ status: 403 });

    expect((await call('POST', `/users/${carol.id}/deactivate`, server.rootToken)).status).toBe(201);
    expect((await admin.Users.show(carol.id)).state).toBe('deactivated');
    expect((await call('POST', `/users/${carol.id}/activate`, server.rootToken)).status).toBe(201);
    expect((await admin.Users.show(carol.id)).state).toBe('active');
    expect((await call('DELETE', `/users/${carol.id}/identities/nowhere`, server.rootToken)).status).toBe(404);
  });

  it('lists and edits groups', async () => {
    expect((await carol.api.Groups.all()).map((g) => g.full_path)).toEqual(['design']);
    const edited = await admin.Groups.edit(group.id, { description: 'Design work' });
    expect(edited).toMatchObject({ id: group.id, description: 'Design work' });
    expect(await failureOf(carol.api.Groups.edit(group.id, { description: 'Mine' }))).toMatchObject({ status: 403 });
  });

  it('reads namespaces and whether a path is taken', async () => {
    const namespaces = await carol.api.Namespaces.all();
    expect(namespaces.map((n) => [n.path, n.kind]).sort()).toEqual([
      ['carol', 'user'],
      ['design', 'group'],
    ]);
    expect(await carol.api.Namespaces.show('design')).toMatchObject({ id: group.id, kind: 'group', full_path: 'design' });
    expect(await carol.api.Namespaces.exists('design')).toMatchObject({ exists: true, suggests: ['design1'] });
    expect((await call('GET', '/namespaces/nothing-here/exists', carol.token)).body).toEqual({ exists: false, suggests: [] });
  });

  it('shows a member of a project, inherited from its group', async () => {
    const member = await call('GET', `/projects/${projectId}/members/all/${carol.id}`, carol.token);
    expect(member.body).toMatchObject({ id: carol.id, username: 'carol', access_level: AccessLevel.REPORTER });
    expect((await call('GET', `/projects/${projectId}/members/all/999999`, carol.token)).status).toBe(404);
  });

  it('lets a user create a token for themselves with the scopes allowed, and list their tokens', async () => {
    const created = await call('POST', '/user/personal_access_tokens', carol.token, { name: 'cluster', scopes: ['k8s_proxy'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'cluster', scopes: ['k8s_proxy'], user_id: carol.id, active: true });
    expect(created.body.token).toEqual(expect.any(String));
    expect((await call('POST', '/user/personal_access_tokens', carol.token, { name: 'all', scopes: ['api'] })).status).toBe(400);

    const mine = await call('GET', '/personal_access_tokens', carol.token);
    expect(mine.body.map((token: { name: string }) => token.name).sort()).toEqual(['carol-api', 'cluster']);
    expect(mine.body.every((token: { user_id: number }) => token.user_id === carol.id)).toBe(true);
  });
});
