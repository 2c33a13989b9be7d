import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';
import { rest } from './support/rest.js';

type Move = { id: number; state: string; source_storage_name: string; destination_storage_name: string } & Record<string, unknown>;

/** An administrator moves a project, a snippet and a group's wiki to a second storage, through plain requests and @gitbeaker/rest. */
describe('Repository storage moves on a listening server', () => {
  let server: ListeningServer;
  let admin: Api;
  let someone: UserWithToken;
  const containers: Record<'project' | 'snippet' | 'group', { plural: string; id: number }> = {} as never;
  const call = (method: string, path: string, token: string | null, body?: unknown) => rest(server, method, path, token, body);

  beforeAll(async () => {
    server = await startListeningServer(undefined, { plugins: { repositories: { storages: { second: 'second-storage' } } } });
    admin = clientFor(server, server.rootToken);
    someone = await createUserWithToken(admin, server, 'someone');
    const project = (await admin.Projects.create({ name: 'Moving', initializeWithReadme: true })) as unknown as { id: number };
    const snippet = (await admin.Snippets.create('Notes', { visibility: 'public', files: [{ filePath: 'notes.md', content: '# Notes\n' }] })) as unknown as {
      id: number;
    };
    const group = (await admin.Groups.create('Handbook', 'handbook')) as unknown as { id: number };
    Object.assign(containers, {
      project: { plural: 'projects', id: project.id },
      snippet: { plural: 'snippets', id: snippet.id },
      group: { plural: 'groups', id: group.id },
    });
  });
  afterAll(() => server?.close());

  for (const type of ['project', 'snippet', 'group'] as const) {
    describe(`${type} moves`, () => {
      let move: Move;
      const own = () => `/${containers[type].plural}/${containers[type].id}/repository_storage_moves`;

      it('schedules a move of one container to the storage named', async () => {
        const scheduled = await call('POST', own(), server.rootToken, { destination_storage_name: 'second' });
        expect(scheduled.status).toBe(201);
        move = scheduled.body;
        expect(move).toMatchObject({ source_storage_name: 'default', destination_storage_name: 'second', [type]: { id: containers[type].id } });
        expect(['scheduled', 'started', 'replicated', 'finished']).toContain(move.state);

        const again = await call('POST', own(), server.rootToken, { destination_storage_name: 'nowhere' });
        expect(again).toEqual({ status: 400, body: { message: { destination_storage_name: ['is not included in the list'] } } });
      });

      it("lists and shows the move, among the container's and the instance's", async () => {
        const mine = await call('GET', own(), server.rootToken);
        expect(mine.body.map((m: Move) => m.id)).toEqual([move.id]);
        expect((await call('GET', `${own()}/${move.id}`, server.rootToken)).body).toMatchObject({ id: move.id, [type]: { id: containers[type].id } });

        const all = await call('GET', `/${type}_repository_storage_moves`, server.rootToken);
        expect(all.body.map((m: Move) => m.id)).toEqual([move.id]);
        expect((await call('GET', `/${type}_repository_storage_moves/${move.id}`, server.rootToken)).body).toMatchObject({ id: move.id });
        const otherType = type === 'project' ? 'snippet' : 'project';
        expect((await call('GET', `/${otherType}_repository_storage_moves/${move.id}`, server.rootToken)).status).toBe(404);
      });

      it('is for administrators only', async () => {
        expect((await call('GET', `/${type}_repository_storage_moves`, someone.token)).status).toBe(403);
        expect((await call('GET', own(), someone.token)).status).toBe(403);
        expect((await call('POST', `/${type}_repository_storage_moves`, someone.token, { source_storage_name: 'default' })).status).toBe(403);
      });
    });
  }

  it('accepts a move of everything on a storage, and refuses an unknown storage', async () => {
    expect(await admin.ProjectRepositoryStorageMoves.schedule('second', { destinationStorageName: 'default' })).toBeTruthy();
    for (const type of ['snippet', 'group']) {
      const accepted = await call('POST', `/${type}_repository_storage_moves`, server.rootToken, { source_storage_name: 'second' });
      expect(accepted.status).toBe(202);
    }
    const unknown = await call('POST', '/group_repository_storage_moves', server.rootToken, { source_storage_name: 'nowhere' });
    expect(unknown.status).toBe(400);
  });
});
