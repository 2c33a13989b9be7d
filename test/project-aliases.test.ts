import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';

/** An administrator names a project by a short alias, lists and shows aliases, and removes one, through @gitbeaker/rest. */
describe('project aliases through @gitbeaker/rest', () => {
  let server: ListeningServer;
  let admin: Api;
  let user: UserWithToken;
  let projectId: number;
  // gitbeaker has no call for one alias: a plain request.
  const show = (name: string, token: string) => fetch(`${server.url}/api/v4/project_aliases/${name}`, { headers: { 'PRIVATE-TOKEN': token } });

  beforeAll(async () => {
    server = await startListeningServer();
    admin = clientFor(server, server.rootToken);
    user = await createUserWithToken(admin, server, 'aliasuser');
    projectId = ((await admin.Projects.create({ name: 'Platform Monorepo' })) as unknown as { id: number }).id;
  });
  afterAll(() => server?.close());

  it('creates, lists and shows an alias', async () => {
    const alias = await admin.ProjectAliases.create(projectId, 'mono');
    expect(alias).toMatchObject({ project_id: projectId, name: 'mono' });
    expect(await admin.ProjectAliases.all()).toEqual([alias]);
    expect(await (await show('mono', server.rootToken)).json()).toEqual(alias);
    expect((await show('nothing', server.rootToken)).status).toBe(404);
  });

  it('is for administrators only, and removes the alias', async () => {
    expect(await failureOf(user.api.ProjectAliases.all())).toMatchObject({ status: 403 });
    expect((await show('mono', user.token)).status).toBe(403);
    await admin.ProjectAliases.remove('mono');
    expect(await admin.ProjectAliases.all()).toEqual([]);
  });
});
