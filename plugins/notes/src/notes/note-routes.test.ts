import { definePlugin, recordNotFound } from '@forgekit/kernel';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { coreAccessRef } from '@forgekit/plugin-core/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { notesServiceRef, type NotesService } from '../contracts.js';
import { NoteEntity } from '../entities/note.js';
import { notesPlugin } from '../plugin.js';

/** A stand-in noteable kind: issue iid 7 of any project the caller can read is noteable 700. */
const noteablePlugin = definePlugin({
  id: 'noteable-fixture',
  compatibility: '^0.1.0',
  requires: [notesServiceRef, coreAccessRef],
  register(ctx) {
    const access = ctx.resolve(coreAccessRef);
    ctx.resolve(notesServiceRef).registerNoteable('Issue', 'issues', async (user, projectIdOrPath, iid) => {
      const { project } = await access.requireProject(user, projectIdOrPath);
      if (iid !== '7') throw recordNotFound();
      return { id: 700, iid: 7, projectId: project.id };
    });
  },
});

let app: TestApp;
let notes: NotesService;
let path: string;

beforeAll(async () => {
  app = await createTestApp({ plugins: [notesPlugin, noteablePlugin] });
  notes = app.kernel.resolve(notesServiceRef);
  path = `/api/v4/projects/${app.project.id}/issues/7/notes`;
  for (const body of ['closed', 'reopened']) {
    await notes.recordSystemNote({ noteableType: 'Issue', noteableId: 700, noteableIid: 7, projectId: app.project.id, authorId: app.users.developer.id, body });
  }
});
afterAll(() => app.close());

it('lists system notes with GitLab’s Note fields, newest first', async () => {
  const res = await app.get(path, { token: 'guest' });
  expect(res.status).toBe(200);
  expect(res.body.map((n: { body: string }) => n.body)).toEqual(['reopened', 'closed']);
  expect(res.body[0]).toMatchObject({
    type: null,
    attachment: null,
    author: { id: app.users.developer.id, username: 'developer', state: 'active' },
    system: true,
    noteable_id: 700,
    noteable_type: 'Issue',
    noteable_iid: 7,
    project_id: app.project.id,
    resolvable: false,
    confidential: false,
    internal: false,
    imported: false,
    imported_from: 'none',
    commands_changes: {},
  });
  const asc = await app.get(path, { token: 'guest', query: { sort: 'asc', order_by: 'updated_at' } });
  expect(asc.body.map((n: { body: string }) => n.body)).toEqual(['closed', 'reopened']);
  expect((await app.get(path, { token: 'guest', query: { activity_filter: 'only_comments' } })).body).toEqual([]);
  const userCounts = await notes.userNoteCounts('Issue', [700]);
  expect(userCounts.get(700) ?? 0).toBe(0);
});

it('answers the noteable’s 404s, 401 to anonymous callers, and unknown kinds as unknown routes', async () => {
  expect(await app.get(path, { token: null })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
  expect(await app.get(`/api/v4/projects/${app.project.id}/issues/8/notes`, { token: 'guest' })).toMatchObject({
    status: 404,
    body: { message: '404 Not found' },
  });
  expect(await app.get(path, { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
  expect(await app.get(`/api/v4/projects/${app.project.id}/merge_requests/1/notes`, { token: 'guest' })).toMatchObject({
    status: 404,
    body: { error: '404 Not Found' },
  });
});

it('removes the notes of a noteable and of a deleted project', async () => {
  await notes.recordSystemNote({
    noteableType: 'Snippet',
    noteableId: 5,
    noteableIid: null,
    projectId: app.project.id,
    authorId: app.users.developer.id,
    body: 'x',
  });
  await notes.removeAllFor('Snippet', 5);
  expect(await app.kernel.database.count(app.kernel.database.table(NoteEntity))).toBe(2);
  expect((await app.delete(`/api/v4/projects/${app.project.id}`, { token: 'owner' })).status).toBe(202);
  expect(await app.kernel.database.count(app.kernel.database.table(NoteEntity))).toBe(0);
});

it('counts each noteable’s comments, not its system notes, for lists of any length', async () => {
  const now = new Date();
  const comment = (noteableId: number) => ({
    noteableType: 'Issue' as const,
    noteableId,
    projectId: app.project.id,
    authorId: app.users.developer.id,
    body: 'a comment',
    system: false,
    createdAt: now,
    updatedAt: now,
  });
  await app.kernel.database.insertMany(NoteEntity, [comment(701), comment(701), comment(702), { ...comment(702), noteableType: 'MergeRequest' as const }]);
  expect(Object.fromEntries(await notes.userNoteCounts('Issue', [700, 701, 702]))).toEqual({ 701: 2, 702: 1 });
  expect(Object.fromEntries(await notes.userNoteCounts('Issue', [701]))).toEqual({ 701: 2 });
  expect(Object.fromEntries(await notes.userNoteCounts('MergeRequest', [701, 702]))).toEqual({ 702: 1 });
  expect(Object.fromEntries(await notes.userNoteCounts('Issue', []))).toEqual({});
});
