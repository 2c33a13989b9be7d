import { AccessLevel } from '@gitbeaker/rest';
import { corePlugin } from '@forgekit/plugin-core';
import { issuesPlugin } from '@forgekit/plugin-issues';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';

describe('issue notes, discussions and award emoji through @gitbeaker/rest', () => {
  let server: ListeningServer;
  let api: Api;
  let dev: UserWithToken;
  let guest: UserWithToken;
  let projectId: number;
  let issueIid: number;

  beforeAll(async () => {
    server = await startListeningServer([corePlugin, labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, issuesPlugin]);
    api = clientFor(server, server.rootToken);
    const group = await api.Groups.create('Notes Group', 'notes-group');
    const project = await api.Projects.create({ name: 'Notes Project', namespaceId: group.id });
    projectId = project.id;
    dev = await createUserWithToken(api, server, 'notesdev');
    guest = await createUserWithToken(api, server, 'notesguest');
    await api.GroupMembers.add(group.id, AccessLevel.DEVELOPER, { userId: dev.id });
    await api.GroupMembers.add(group.id, AccessLevel.GUEST, { userId: guest.id });
    issueIid = (await dev.api.Issues.create(projectId, 'Needs discussion')).iid;
  });
  afterAll(() => server?.close());

  it('creates, shows, edits, lists and deletes issue notes, keeping user_notes_count right', async () => {
    const note = await guest.api.IssueNotes.create(projectId, issueIid, 'I can reproduce this');
    expect(note).toMatchObject({
      body: 'I can reproduce this',
      author: { username: 'notesguest' },
      noteable_type: 'Issue',
      noteable_iid: issueIid,
      internal: false,
    });
    const internal = await dev.api.IssueNotes.create(projectId, issueIid, 'between us', { internal: true });
    expect(internal.internal).toBe(true);

    expect((await guest.api.IssueNotes.all(projectId, issueIid)).map((n) => n.body)).toEqual(['I can reproduce this']);
    expect((await dev.api.IssueNotes.all(projectId, issueIid, { sort: 'asc' })).map((n) => n.body)).toEqual(['I can reproduce this', 'between us']);
    expect((await guest.api.IssueNotes.show(projectId, issueIid, note.id)).body).toBe('I can reproduce this');
    expect(await failureOf(guest.api.IssueNotes.show(projectId, issueIid, internal.id))).toEqual({ status: 404, description: '404 Note Not Found' });
    expect((await api.Issues.show(issueIid, { projectId })).user_notes_count).toBe(2);

    expect((await guest.api.IssueNotes.edit(projectId, issueIid, note.id, { body: 'I can reproduce this on main' })).body).toBe('I can reproduce this on main');
    expect(await failureOf(dev.api.IssueNotes.edit(projectId, issueIid, note.id, { body: 'not mine' }))).toEqual({ status: 403, description: '403 Forbidden' });
    await dev.api.IssueNotes.remove(projectId, issueIid, internal.id);
    expect(await failureOf(dev.api.IssueNotes.show(projectId, issueIid, internal.id))).toEqual({ status: 404, description: '404 Not found' });
    expect((await api.Issues.show(issueIid, { projectId })).user_notes_count).toBe(1);
    expect(await failureOf(guest.api.IssueNotes.create(projectId, 999, 'x'))).toMatchObject({ status: 404 });
  });

  it('starts threads, replies and edits within them', async () => {
    const thread = await dev.api.IssueDiscussions.create(projectId, issueIid, 'Which release broke it?');
    expect(thread).toMatchObject({ individual_note: false, notes: [{ type: 'DiscussionNote', body: 'Which release broke it?' }] });
    const reply = await guest.api.IssueDiscussions.addNote(projectId, issueIid, thread.id, 'The last one');
    expect(reply).toMatchObject({ type: 'DiscussionNote', body: 'The last one', author: { username: 'notesguest' } });
    const edited = await guest.api.IssueDiscussions.editNote(projectId, issueIid, thread.id, reply.id, { body: 'The last two' });
    expect(edited.body).toBe('The last two');

    const shown = await guest.api.IssueDiscussions.show(projectId, issueIid, thread.id);
    expect(shown.notes!.map((n) => n.body)).toEqual(['Which release broke it?', 'The last two']);
    const all = await guest.api.IssueDiscussions.all(projectId, issueIid);
    expect(all.at(-1)!.id).toBe(thread.id);
    expect(all.every((d) => d.notes!.length > 0)).toBe(true);

    await guest.api.IssueDiscussions.removeNote(projectId, issueIid, thread.id, reply.id);
    expect((await guest.api.IssueDiscussions.show(projectId, issueIid, thread.id)).notes).toHaveLength(1);
    expect(await failureOf(guest.api.IssueDiscussions.show(projectId, issueIid, 'f'.repeat(40)))).toEqual({
      status: 404,
      description: '404 Discussion Not Found',
    });
  });

  it('awards emoji on issues and notes, and turns an emoji-only comment into an award', async () => {
    const award = await guest.api.IssueAwardEmojis.award(projectId, issueIid, 'rocket');
    expect(award).toMatchObject({ name: 'rocket', awardable_type: 'Issue', user: { username: 'notesguest' } });
    const answer = await dev.api.IssueNotes.create(projectId, issueIid, ':+1:');
    expect(answer).toMatchObject({ id: null, body: ':+1:' });
    expect((await guest.api.IssueAwardEmojis.all(projectId, issueIid)).map((a) => [a.name, a.user.username])).toEqual([
      ['rocket', 'notesguest'],
      ['thumbsup', 'notesdev'],
    ]);
    expect(await failureOf(dev.api.IssueAwardEmojis.remove(projectId, issueIid, award.id))).toEqual({ status: 401, description: '401 Unauthorized' });
    expect(await api.Issues.show(issueIid, { projectId })).toMatchObject({ upvotes: 1, downvotes: 0 });
    await guest.api.IssueAwardEmojis.remove(projectId, issueIid, award.id);
    expect((await guest.api.IssueAwardEmojis.all(projectId, issueIid)).map((a) => a.name)).toEqual(['thumbsup']);

    const note = await guest.api.IssueNotes.create(projectId, issueIid, 'Fixed on my machine');
    const onNote = await dev.api.IssueNoteAwardEmojis.award(projectId, issueIid, note.id, 'tada');
    expect(onNote).toMatchObject({ name: 'tada', awardable_type: 'Note', awardable_id: note.id });
    expect((await guest.api.IssueNoteAwardEmojis.all(projectId, issueIid, note.id)).map((a) => a.name)).toEqual(['tada']);
    expect((await dev.api.IssueNoteAwardEmojis.show(projectId, issueIid, note.id, onNote.id)).name).toBe('tada');
    await dev.api.IssueNoteAwardEmojis.remove(projectId, issueIid, note.id, onNote.id);
    expect(await guest.api.IssueNoteAwardEmojis.all(projectId, issueIid, note.id)).toEqual([]);
  });

  it('runs quick actions from a note body', async () => {
    const answer = await dev.api.IssueNotes.create(projectId, issueIid, 'Closing as fixed\n/close');
    expect(answer).toMatchObject({ body: 'Closing as fixed', commands_changes: { state_event: 'close' } });
    expect((await api.Issues.show(issueIid, { projectId })).state).toBe('closed');
  });
});
