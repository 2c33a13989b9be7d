import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { recordStatements } from '@forgekit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notesServiceRef } from '../contracts.js';
import { notesPlugin } from '../plugin.js';
import { noteableFixture, seenEvents } from '../testing/noteable-fixture.js';

let app: TestApp;
let issue: string;
let mergeRequest: string;

const position = { base_sha: 'a'.repeat(40), start_sha: 'b'.repeat(40), head_sha: 'c'.repeat(40), position_type: 'text', new_path: 'README.md', new_line: 3 };

beforeAll(async () => {
  app = await createTestApp({ plugins: [notesPlugin, noteableFixture] });
  issue = `/api/v4/projects/${app.project.id}/issues/7/discussions`;
  mergeRequest = `/api/v4/projects/${app.project.id}/merge_requests/3/discussions`;
});
afterAll(() => app.close());

describe('issue discussions', () => {
  it('starts a thread, replies in it, and lists lone comments and system notes as individual discussions', async () => {
    await app.kernel
      .resolve(notesServiceRef)
      .recordSystemNote({ noteableType: 'Issue', noteableId: 700, noteableIid: 7, projectId: app.project.id, authorId: app.users.owner.id, body: 'closed' });
    const lone = await app.post(`/api/v4/projects/${app.project.id}/issues/7/notes`, { body: 'lone' }, { token: 'guest' });
    const thread = await app.post(issue, { body: 'a thread' }, { token: 'developer' });
    expect(thread.status).toBe(201);
    expect(thread.body).toMatchObject({ individual_note: false, notes: [{ type: 'DiscussionNote', body: 'a thread', resolvable: false }] });
    expect(thread.body.id).toMatch(/^[0-9a-f]{40}$/);
    const reply = await app.post(`${issue}/${thread.body.id}/notes`, { body: 'a reply' }, { token: 'guest' });
    expect(reply).toMatchObject({ status: 201, body: { type: 'DiscussionNote', body: 'a reply' } });

    const list = await app.get(issue, { token: 'guest' });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total')).toBe('3');
    expect(list.body.map((d: { individual_note: boolean; notes: { body: string }[] }) => [d.individual_note, d.notes.map((n) => n.body)])).toEqual([
      [true, ['closed']],
      [true, ['lone']],
      [false, ['a thread', 'a reply']],
    ]);
    expect((await app.get(`${issue}/${thread.body.id}`, { token: 'guest' })).body.notes).toHaveLength(2);
    expect((await app.get(issue, { token: 'guest', query: { per_page: 1, page: 3 } })).body[0].id).toBe(thread.body.id);

    const loneDiscussion = list.body[1].id;
    expect(list.body[1].notes[0].id).toBe(lone.body.id);
    const converted = await app.post(`${issue}/${loneDiscussion}/notes`, { body: 'answer to lone' }, { token: 'reporter' });
    expect(converted.status).toBe(201);
    expect((await app.get(`${issue}/${loneDiscussion}`, { token: 'guest' })).body).toMatchObject({
      individual_note: false,
      notes: [{ type: 'DiscussionNote' }, { body: 'answer to lone' }],
    });
  });

  it('reads a page of threads in the same statements whatever its size', async () => {
    const log = recordStatements(app.kernel);
    try {
      const statementsOf = (perPage: number) =>
        log.during(async () => {
          const res = await app.get(issue, { token: 'guest', query: { per_page: perPage } });
          expect(res.body).toHaveLength(perPage);
        });
      const one = await statementsOf(1);
      const three = await statementsOf(3);
      expect(three.length, three.join('\n')).toBe(one.length);
    } finally {
      log.stop();
    }
  });

  it('answers GitLab’s errors on threads', async () => {
    expect(await app.get(`${issue}/${'f'.repeat(40)}`, { token: 'guest' })).toMatchObject({ status: 404, body: { message: '404 Discussion Not Found' } });
    const system = (await app.get(issue, { token: 'guest' })).body[0];
    expect(await app.post(`${issue}/${system.id}/notes`, { body: 'x' }, { token: 'guest' })).toMatchObject({
      status: 400,
      body: { message: '400 Bad request - Discussion can not be replied to.' },
    });
    expect(await app.post(issue, {}, { token: 'guest' })).toMatchObject({ status: 400, body: { error: 'body is missing' } });
    expect(await app.get(issue, { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
  });

  it('keeps replies of an internal thread internal and the thread from guests', async () => {
    const thread = await app.post(issue, { body: 'internal thread', internal: true }, { token: 'reporter' });
    const reply = await app.post(`${issue}/${thread.body.id}/notes`, { body: 'internal reply' }, { token: 'developer' });
    expect(reply.body.internal).toBe(true);
    expect(await app.get(`${issue}/${thread.body.id}`, { token: 'guest' })).toMatchObject({ status: 404, body: { message: '404 Discussion Not Found' } });
    expect((await app.get(issue, { token: 'guest', query: { per_page: 100 } })).body.map((d: { id: string }) => d.id)).not.toContain(thread.body.id);
  });

  it('edits and deletes notes in a thread by their author', async () => {
    const thread = (await app.post(issue, { body: 'to edit' }, { token: 'developer' })).body;
    const noteId = thread.notes[0].id;
    expect(await app.put(`${issue}/${thread.id}/notes/${noteId}`, { body: 'edited' }, { token: 'developer' })).toMatchObject({
      status: 200,
      body: { body: 'edited' },
    });
    expect(await app.put(`${issue}/${thread.id}/notes/${noteId}`, { body: 'x' }, { token: 'maintainer' })).toMatchObject({ status: 403 });
    expect(await app.put(`${issue}/${thread.id}/notes/${noteId}`, {}, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { error: 'body, resolved are missing, exactly one parameter must be provided' },
    });
    expect(await app.put(`${issue}/${thread.id}/notes/${noteId}`, { resolved: true }, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { message: '400 Bad request - Note is not resolvable' },
    });
    expect(await app.delete(`${issue}/${thread.id}/notes/${noteId}`, { token: 'guest' })).toMatchObject({ status: 403 });
    expect((await app.delete(`${issue}/${thread.id}/notes/${noteId}`, { token: 'developer' })).status).toBe(204);
    expect(await app.get(`${issue}/${thread.id}`, { token: 'developer' })).toMatchObject({ status: 404, body: { message: '404 Discussion Not Found' } });
  });
});

describe('merge request discussions', () => {
  it('stores a diff note’s position and resolves threads', async () => {
    const thread = await app.post(mergeRequest, { body: 'on a line', position }, { token: 'developer' });
    expect(thread.status).toBe(201);
    expect(thread.body.notes[0]).toMatchObject({
      type: 'DiffNote',
      resolvable: true,
      resolved: false,
      resolved_by: null,
      resolved_at: null,
      commit_id: null,
      position: { ...position, old_path: null, old_line: null, line_range: null },
    });
    const id = thread.body.id;
    expect(await app.put(`${mergeRequest}/${id}`, { resolved: true }, { token: 'guest' })).toMatchObject({ status: 403 });
    const resolved = await app.put(`${mergeRequest}/${id}`, { resolved: true }, { token: 'maintainer' });
    expect(resolved.status).toBe(200);
    expect(resolved.body.notes[0]).toMatchObject({ resolved: true, resolved_by: { username: 'maintainer' } });
    const noteId = thread.body.notes[0].id;
    const reopened = await app.put(`${mergeRequest}/${id}/notes/${noteId}`, { resolved: false }, { token: 'developer' });
    expect(reopened.body).toMatchObject({ resolved: false, resolved_by: null, resolved_at: null });
    expect(await app.put(`${mergeRequest}/${id}`, {}, { token: 'developer' })).toMatchObject({ status: 400, body: { error: 'resolved is missing' } });
  });

  it('makes plain merge request threads resolvable and refuses incomplete positions', async () => {
    const thread = await app.post(mergeRequest, { body: 'general' }, { token: 'guest' });
    expect(thread.body.notes[0]).toMatchObject({ type: 'DiscussionNote', resolvable: true, resolved: false });
    expect(thread.body.notes[0]).not.toHaveProperty('position');
    const incomplete = await app.post(mergeRequest, { body: 'x', position: { base_sha: 'a' } }, { token: 'developer' });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.error).toContain('position[start_sha] is missing');
    expect(await app.post(mergeRequest, { body: 'x', position: { ...position, new_line: 999 } }, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { message: '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}' },
    });
    expect(await app.post(issue, { body: 'x', position }, { token: 'developer' })).toMatchObject({ status: 400 });
  });

  it('tells listeners about created, updated and deleted notes and about awards', async () => {
    const note = (await app.post(`/api/v4/projects/${app.project.id}/merge_requests/3/notes`, { body: 'watched' }, { token: 'developer' })).body;
    await app.put(`/api/v4/projects/${app.project.id}/merge_requests/3/notes/${note.id}`, { body: 'watched twice' }, { token: 'developer' });
    const award = (await app.post(`/api/v4/projects/${app.project.id}/merge_requests/3/award_emoji`, { name: 'eyes' }, { token: 'developer' })).body;
    await app.delete(`/api/v4/projects/${app.project.id}/merge_requests/3/award_emoji/${award.id}`, { token: 'developer' });
    await app.delete(`/api/v4/projects/${app.project.id}/merge_requests/3/notes/${note.id}`, { token: 'developer' });
    await expect
      .poll(() => seenEvents.filter((seen) => seen.endsWith(`:${note.id}`) || seen.endsWith(`:${award.id}`)))
      .toEqual(expect.arrayContaining([`created:${note.id}`, `updated:${note.id}`, `deleted:${note.id}`, `awarded:${award.id}`, `revoked:${award.id}`]));
  });
});
