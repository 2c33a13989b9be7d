import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';

type Answer = { status: number; body: any };

/** Comments, threads and award emoji on merge requests, project snippets and wiki pages, through plain requests. */
describe('notes, discussions and award emoji beyond issues', () => {
  let server: ListeningServer;
  let admin: Api;
  let stranger: UserWithToken;
  const noteables: Record<'merge request' | 'snippet' | 'wiki page', string> = {} as never;
  const call = async (method: string, path: string, body?: Record<string, unknown>, token = server.rootToken): Promise<Answer> => {
    const res = await fetch(`${server.url}/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    return { status: res.status, body: res.status === 204 ? null : await res.json() };
  };

  beforeAll(async () => {
    server = await startListeningServer();
    admin = clientFor(server, server.rootToken);
    stranger = await createUserWithToken(admin, server, 'stranger');
    const project = (await admin.Projects.create({ name: 'Reviewed', initializeWithReadme: true, visibility: 'private' })) as unknown as { id: number };
    await admin.Branches.create(project.id, 'feature', 'main');
    const file = await call('POST', `/projects/${project.id}/repository/files/docs%2Fguide.md`, {
      branch: 'feature',
      content: '# Guide\n',
      commit_message: 'Add the guide',
    });
    expect(file).toMatchObject({ status: 201, body: { file_path: 'docs/guide.md', branch: 'feature' } });
    const mr = await admin.MergeRequests.create(project.id, 'feature', 'main', 'Add the guide');
    const snippet = (await admin.ProjectSnippets.create(project.id, 'Query', {
      visibility: 'private',
      files: [{ filePath: 'q.sql', content: 'select 1;\n' }],
    })) as unknown as {
      id: number;
    };
    expect((await call('POST', `/projects/${project.id}/wikis`, { title: 'Home', content: 'Welcome' })).status).toBe(201);
    // The list of pages (without their content) carries the id notes on a page go by.
    const [page] = (await call('GET', `/projects/${project.id}/wikis`)).body;
    Object.assign(noteables, {
      'merge request': `/projects/${project.id}/merge_requests/${mr.iid}`,
      snippet: `/projects/${project.id}/snippets/${snippet.id}`,
      'wiki page': `/projects/${project.id}/wiki_pages/${page.wiki_page_meta_id}`,
    });
  });
  afterAll(() => server?.close());

  for (const kind of ['merge request', 'snippet', 'wiki page'] as const) {
    describe(`on a ${kind}`, () => {
      let note: { id: number };
      let discussion: { id: string; notes: { id: number }[] };
      const base = () => noteables[kind];

      it('adds, lists, shows, edits and removes a comment', async () => {
        const created = await call('POST', `${base()}/notes`, { body: 'Looks good' });
        expect(created.status).toBe(201);
        expect(created.body).toMatchObject({ body: 'Looks good', system: false, author: { username: 'root' } });
        note = created.body;
        expect((await call('GET', `${base()}/notes`)).body.map((n: { id: number }) => n.id)).toContain(note.id);
        expect((await call('GET', `${base()}/notes/${note.id}`)).body).toMatchObject({ id: note.id, body: 'Looks good' });
        expect((await call('PUT', `${base()}/notes/${note.id}`, { body: 'Looks great' })).body).toMatchObject({ id: note.id, body: 'Looks great' });
        expect((await call('GET', `${base()}/notes`, undefined, stranger.token)).status).toBe(404);

        const removed = await call('POST', `${base()}/notes`, { body: 'Never mind' });
        expect((await call('DELETE', `${base()}/notes/${removed.body.id}`)).status).toBe(204);
        expect((await call('GET', `${base()}/notes/${removed.body.id}`)).status).toBe(404);
      });

      it('starts a thread, replies, edits and removes the reply', async () => {
        const started = await call('POST', `${base()}/discussions`, { body: 'Why this way?' });
        expect(started.status).toBe(201);
        discussion = started.body;
        expect(discussion.notes).toHaveLength(1);
        const reply = await call('POST', `${base()}/discussions/${discussion.id}/notes`, { body: 'Because' });
        expect(reply.status).toBe(201);
        expect((await call('GET', `${base()}/discussions/${discussion.id}`)).body.notes.map((n: { body: string }) => n.body)).toEqual([
          'Why this way?',
          'Because',
        ]);
        expect((await call('GET', `${base()}/discussions`)).body.map((d: { id: string }) => d.id)).toContain(discussion.id);
        const edited = await call('PUT', `${base()}/discussions/${discussion.id}/notes/${reply.body.id}`, { body: 'Because it is simpler' });
        expect(edited.body).toMatchObject({ id: reply.body.id, body: 'Because it is simpler' });
        expect((await call('DELETE', `${base()}/discussions/${discussion.id}/notes/${reply.body.id}`)).status).toBe(204);
        expect((await call('GET', `${base()}/discussions/${discussion.id}`)).body.notes).toHaveLength(1);
      });

      if (kind === 'merge request') {
        it('resolves the thread', async () => {
          const resolved = await call('PUT', `${base()}/discussions/${discussion.id}`, { resolved: true });
          expect(resolved.status).toBe(200);
          expect(resolved.body.notes[0]).toMatchObject({ resolvable: true, resolved: true, resolved_by: { username: 'root' } });
        });
      }

      if (kind !== 'wiki page') {
        it('awards emoji to it and to a comment, shows and removes them', async () => {
          const award = await call('POST', `${base()}/award_emoji`, { name: 'thumbsup' });
          expect(award.status).toBe(201);
          expect(award.body).toMatchObject({ name: 'thumbsup', user: { username: 'root' } });
          expect((await call('GET', `${base()}/award_emoji`)).body.map((a: { id: number }) => a.id)).toEqual([award.body.id]);
          expect((await call('GET', `${base()}/award_emoji/${award.body.id}`)).body).toMatchObject({ id: award.body.id, name: 'thumbsup' });
          expect((await call('POST', `${base()}/award_emoji`, { name: 'thumbsup' })).status).toBe(404);
          expect((await call('DELETE', `${base()}/award_emoji/${award.body.id}`)).status).toBe(204);

          const onNote = await call('POST', `${base()}/notes/${note.id}/award_emoji`, { name: 'tada' });
          expect(onNote.body).toMatchObject({ name: 'tada', awardable_id: note.id, awardable_type: 'Note' });
          expect((await call('GET', `${base()}/notes/${note.id}/award_emoji`)).body.map((a: { name: string }) => a.name)).toEqual(['tada']);
          expect((await call('GET', `${base()}/notes/${note.id}/award_emoji/${onNote.body.id}`)).body).toMatchObject({ id: onNote.body.id });
          expect((await call('DELETE', `${base()}/notes/${note.id}/award_emoji/${onNote.body.id}`)).status).toBe(204);
          expect((await call('GET', `${base()}/notes/${note.id}/award_emoji`)).body).toEqual([]);
        });
      }
    });
  }
});
