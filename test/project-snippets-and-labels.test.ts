import { AccessLevel } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';
import { rest } from './support/rest.js';

/** A project's snippets (show, edit, raw files, removal), the public snippets, and label subscriptions and removal by name. */
describe('project snippets and labels through @gitbeaker/rest', () => {
  let server: ListeningServer;
  let admin: Api;
  let dev: UserWithToken;
  let group: { id: number };
  let projectId: number;
  const call = (method: string, path: string, token: string | null, body?: unknown) => rest(server, method, path, token, body);

  beforeAll(async () => {
    server = await startListeningServer();
    admin = clientFor(server, server.rootToken);
    dev = await createUserWithToken(admin, server, 'snipdev');
    group = (await admin.Groups.create('Tools', 'tools', { visibility: 'public' })) as unknown as { id: number };
    projectId = ((await admin.Projects.create({ name: 'Scripts', namespaceId: group.id, visibility: 'public' })) as unknown as { id: number }).id;
    await admin.ProjectMembers.add(projectId, AccessLevel.DEVELOPER, { userId: dev.id });
  });
  afterAll(() => server?.close());

  describe('project snippets', () => {
    let snippetId: number;

    it('shows, edits and serves the raw file of a project snippet', async () => {
      const created = (await dev.api.ProjectSnippets.create(projectId, 'Deploy', {
        visibility: 'public',
        files: [{ filePath: 'deploy.sh', content: 'echo deploy\n' }],
      })) as unknown as { id: number };
      snippetId = created.id;
      expect(await dev.api.ProjectSnippets.show(projectId, snippetId)).toMatchObject({ id: snippetId, title: 'Deploy', project_id: projectId });
      const edited = await call('PUT', `/projects/${projectId}/snippets/${snippetId}`, dev.token, { title: 'Deploy script', description: 'Run it' });
      expect(edited.body).toMatchObject({ title: 'Deploy script', description: 'Run it' });
      const raw = await call('GET', `/projects/${projectId}/snippets/${snippetId}/files/main/deploy.sh/raw`, null);
      expect(raw).toEqual({ status: 200, body: 'echo deploy\n' });
      expect((await call('GET', `/projects/${projectId}/snippets/${snippetId}/files/main/nothing.sh/raw`, null)).status).toBe(404);
    });

    it('lists public personal snippets, not project ones', async () => {
      const personal = (await admin.Snippets.create('Shared', { visibility: 'public', files: [{ filePath: 'a.txt', content: 'a\n' }] })) as unknown as {
        id: number;
      };
      const listed = await call('GET', '/snippets/public', dev.token);
      expect(listed.body.map((snippet: { id: number }) => snippet.id)).toEqual([personal.id]);
    });

    it('removes the project snippet', async () => {
      expect((await call('DELETE', `/projects/${projectId}/snippets/${snippetId}`, dev.token)).status).toBe(204);
      expect(await failureOf(dev.api.ProjectSnippets.show(projectId, snippetId))).toMatchObject({ status: 404 });
    });
  });

  describe('labels', () => {
    it('subscribes to a project label and unsubscribes', async () => {
      const label = await admin.ProjectLabels.create(projectId, 'bug', '#ff0000');
      const subscribed = await call('POST', `/projects/${projectId}/labels/${label.id}/subscribe`, dev.token);
      expect(subscribed).toMatchObject({ status: 201, body: { name: 'bug', subscribed: true } });
      expect((await call('POST', `/projects/${projectId}/labels/${label.id}/subscribe`, dev.token)).status).toBe(304);
      const unsubscribed = await call('POST', `/projects/${projectId}/labels/bug/unsubscribe`, dev.token);
      expect(unsubscribed).toMatchObject({ status: 201, body: { name: 'bug', subscribed: false } });
    });

    it('removes a project label and a group label by name', async () => {
      await admin.ProjectLabels.create(projectId, 'obsolete', '#000000');
      expect((await call('DELETE', `/projects/${projectId}/labels?name=obsolete`, server.rootToken)).status).toBe(204);
      expect((await admin.ProjectLabels.all(projectId)).map((l) => l.name)).toEqual(['bug']);

      await admin.GroupLabels.create(group.id, 'team', '#00ff00');
      expect((await call('DELETE', `/groups/${group.id}/labels?name=team`, server.rootToken)).status).toBe(204);
      expect(await admin.GroupLabels.all(group.id)).toEqual([]);
      expect((await call('DELETE', `/groups/${group.id}/labels?name=team`, server.rootToken)).status).toBe(404);
    });
  });
});
