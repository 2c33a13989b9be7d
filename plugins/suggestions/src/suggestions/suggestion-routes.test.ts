import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { mergeRequestsPlugin } from '@forgekit/plugin-merge-requests';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SuggestionEntity } from '../entities/suggestion.js';
import { suggestionsPlugin } from '../plugin.js';

let app: TestApp;
let base: string;

/** One commit on a branch (started from `from` when new); `create` names files the branch does not have yet. */
async function commit(branch: string, files: Record<string, string>, from?: string, create = Object.keys(files)) {
  const actions = Object.entries(files).map(([file_path, content]) => ({ action: create.includes(file_path) ? 'create' : 'update', file_path, content }));
  const body = { branch, start_branch: from, commit_message: 'Change files', actions };
  const res = await app.post(`${base}/repository/commits`, body, { token: 'maintainer' });
  expect(res.status).toBe(201);
}

/** Opens a merge request of `branch` into main and answers its iid and diff refs. */
async function openMergeRequest(branch: string) {
  const res = await app.post(`${base}/merge_requests`, { title: `From ${branch}`, source_branch: branch, target_branch: 'main' }, { token: 'developer' });
  expect(res.status).toBe(201);
  return { iid: res.body.iid as number, refs: res.body.diff_refs as Record<string, string> };
}

/** The new line numbers a merge request's diff adds to `path`. */
async function addedLines(iid: number, path: string): Promise<Set<number>> {
  const diffs = (await app.get(`${base}/merge_requests/${iid}/diffs`, { token: 'developer' })).body as { new_path: string; diff: string }[];
  const added = new Set<number>();
  let line = 0;
  for (const text of (diffs.find((file) => file.new_path === path)?.diff ?? '').split('\n')) {
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)/.exec(text);
    if (hunk) line = Number(hunk[1]);
    else if (text.startsWith('+')) added.add(line++);
    else if (text.startsWith(' ')) line++;
  }
  return added;
}

/**
 * Starts a diff thread on `path` line `line` and answers its first note: an added line is named
 * by `new_line`, an unchanged one (no line moves in these diffs) by both, as GitLab needs.
 */
async function suggest(mr: { iid: number; refs: Record<string, string> }, body: string, line: number, token = 'developer', path = 'app.txt') {
  const lines = (await addedLines(mr.iid, path)).has(line) ? { new_line: line } : { old_line: line, new_line: line };
  const res = await app.post(
    `${base}/merge_requests/${mr.iid}/discussions`,
    { body, position: { ...mr.refs, position_type: 'text', new_path: path, old_path: path, ...lines } },
    { token },
  );
  expect(res.status).toBe(201);
  return { discussionId: res.body.id as string, note: res.body.notes[0] };
}

const apply = (id: number, token = 'developer', body: Record<string, unknown> = {}) => app.put(`/api/v4/suggestions/${id}/apply`, body, { token });
const batch = (ids: unknown, token = 'developer') => app.put('/api/v4/suggestions/batch_apply', ids === undefined ? {} : { ids }, { token });
const fileOn = async (branch: string, path = 'app.txt') =>
  (await app.get(`${base}/repository/files/${path}/raw`, { token: 'maintainer', query: { ref: branch } })).text;

beforeAll(async () => {
  app = await createTestApp({
    plugins: [repositoriesPlugin, labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, mergeRequestsPlugin, suggestionsPlugin],
  });
  base = `/api/v4/projects/${app.project.id}`;
  await commit('main', { 'app.txt': 'one\ntwo\nthree\nfour\nfive\n', 'other.txt': 'a\nb\n' });
});
afterAll(() => app.close());

describe('suggestions in diff notes', () => {
  let mr: Awaited<ReturnType<typeof openMergeRequest>>;
  beforeAll(async () => {
    await commit('feature', { 'app.txt': 'one\ntwo\nTHREE\nfour\nfive\n' }, 'main', []);
    mr = await openMergeRequest('feature');
  });

  it('parses blocks on create and shows them in the note, with both names of the flag', async () => {
    const { note } = await suggest(mr, 'Better:\n```suggestion:-0+1\nthree\nFour\n```', 3);
    expect(note.suggestions).toEqual([
      {
        id: expect.any(Number),
        from_line: 3,
        to_line: 4,
        appliable: true,
        applicable: true,
        applied: false,
        from_content: 'THREE\nfour\n',
        to_content: 'three\nFour\n',
      },
    ]);
    const listed = await app.get(`${base}/merge_requests/${mr.iid}/notes/${note.id}`, { token: 'reporter' });
    expect(listed.body.suggestions).toEqual(note.suggestions);
  });

  it('parses again when the note is edited, and leaves plain comments without suggestions', async () => {
    const { discussionId, note } = await suggest(mr, 'no block yet', 2);
    expect(note.suggestions).toEqual([]);
    const edited = await app.put(
      `${base}/merge_requests/${mr.iid}/discussions/${discussionId}/notes/${note.id}`,
      { body: '```suggestion\nTWO\n```' },
      { token: 'developer' },
    );
    expect(edited.status).toBe(200);
    expect(edited.body.suggestions).toMatchObject([{ from_line: 2, to_line: 2, from_content: 'two\n', to_content: 'TWO\n', appliable: true }]);
    const comment = await app.post(`${base}/merge_requests/${mr.iid}/notes`, { body: '```suggestion\nx\n```' }, { token: 'developer' });
    expect(comment.body).not.toHaveProperty('suggestions');
  });

  it('answers GitLab’s errors before applying anything', async () => {
    const { note } = await suggest(mr, '```suggestion\nfive\n```', 5);
    const { note: overlapping } = await suggest(mr, '```suggestion:-1\nx\n```', 5);
    const [same] = note.suggestions;
    expect(same).toMatchObject({ appliable: false, applicable: false });
    expect(await apply(same.id)).toMatchObject({ status: 400, body: { message: 'This suggestion already matches its content.' } });
    expect(await apply(same.id, 'reporter')).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await apply(same.id, 'nonMember')).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await app.put(`/api/v4/suggestions/${same.id}/apply`, {})).toMatchObject({ status: 401 });
    expect(await apply(999_999)).toMatchObject({ status: 404, body: { message: 'Suggestion is not applicable as the suggestion was not found.' } });
    expect(await batch([same.id, 999_999])).toMatchObject({
      status: 404,
      body: { message: 'Suggestions are not applicable as one or more suggestions were not found.' },
    });
    expect(await batch([same.id, same.id])).toMatchObject({ status: 404 });
    expect(await batch(undefined)).toMatchObject({ status: 400, body: { error: 'ids is missing' } });
    const notes = await app.get(`${base}/merge_requests/${mr.iid}/discussions`, { token: 'developer', query: { per_page: 100 } });
    const first = notes.body[0].notes[0].suggestions[0].id;
    expect(await batch([first, overlapping.suggestions[0].id])).toMatchObject({
      status: 400,
      body: { message: 'Suggestions are not applicable as their lines cannot overlap.' },
    });
    expect(await fileOn('feature')).toBe('one\ntwo\nTHREE\nfour\nfive\n');
  });

  it('applies one suggestion as a commit by the caller, resolves its thread and outdates the changed lines', async () => {
    const { discussionId, note } = await suggest(mr, '```suggestion:-1\nTwo\nThree\n```', 3, 'maintainer');
    const { note: onLineFour } = await suggest(mr, '```suggestion\nFOUR\n```', 4);
    const res = await apply(note.suggestions[0].id);
    expect(res).toMatchObject({
      status: 200,
      body: { id: note.suggestions[0].id, from_line: 2, to_line: 3, applied: true, appliable: false, applicable: false, to_content: 'Two\nThree\n' },
    });
    expect(await fileOn('feature')).toBe('one\nTwo\nThree\nfour\nfive\n');
    const head = (await app.get(`${base}/repository/branches/feature`, { token: 'developer' })).body.commit;
    expect(head).toMatchObject({
      author_name: 'Developer User',
      message: 'Apply 1 suggestion(s) to 1 file(s)\n\nCo-authored-by: Maintainer User <maintainer@example.com>',
    });
    const thread = await app.get(`${base}/merge_requests/${mr.iid}/discussions/${discussionId}`, { token: 'developer' });
    expect(thread.body.notes[0]).toMatchObject({ resolved: true, suggestions: [{ applied: true, appliable: false }] });

    expect(await apply(note.suggestions[0].id)).toMatchObject({ status: 400, body: { message: "Can't apply this suggestion." } });
    // The earlier suggestion on lines 3 and 4 no longer matches the branch; the one on line 4 alone still does.
    const notes = await app.get(`${base}/merge_requests/${mr.iid}/discussions`, { token: 'developer', query: { per_page: 100 } });
    const outdated = notes.body[0].notes[0].suggestions[0];
    expect(await apply(outdated.id)).toMatchObject({ status: 400, body: { message: "Can't apply as these lines were changed in a more recent version." } });
    expect(onLineFour.suggestions[0].appliable).toBe(true);
  });

  it('applies a batch over several files in one commit with the given message', async () => {
    const { note: four } = await suggest(mr, '```suggestion\nFOUR\n```', 4);
    await commit('feature', { 'other.txt': 'a\nB\n' }, undefined, []);
    const refs = (await app.get(`${base}/merge_requests/${mr.iid}`, { token: 'developer' })).body.diff_refs;
    const { note: other } = await suggest({ ...mr, refs }, '```suggestion\nbee\n```', 2, 'developer', 'other.txt');
    const res = await batch(`${four.suggestions[0].id},${other.suggestions[0].id}`);
    expect(res.status).toBe(200);
    expect(res.body.map((suggestion: { applied: boolean }) => suggestion.applied)).toEqual([true, true]);
    expect(await fileOn('feature')).toBe('one\nTwo\nThree\nFOUR\nfive\n');
    expect(await fileOn('feature', 'other.txt')).toBe('a\nbee\n');
    const head = (await app.get(`${base}/repository/branches/feature`, { token: 'developer' })).body.commit;
    expect(head.message).toBe('Apply 2 suggestion(s) to 2 file(s)');

    const { note: custom } = await suggest({ ...mr, refs }, '```suggestion\nfive!\n```', 5);
    expect((await apply(custom.suggestions[0].id, 'developer', { commit_message: 'Shout' })).status).toBe(200);
    expect((await app.get(`${base}/repository/branches/feature`, { token: 'developer' })).body.commit.message).toBe('Shout');
  });

  it('refuses suggestions of closed merge requests and of deleted source branches', async () => {
    await commit('closing', { 'app.txt': 'one\n' }, 'main', []);
    const closing = await openMergeRequest('closing');
    const { note } = await suggest(closing, '```suggestion\nuno\n```', 1);
    expect((await app.put(`${base}/merge_requests/${closing.iid}`, { state_event: 'close' }, { token: 'developer' })).status).toBe(200);
    expect(await apply(note.suggestions[0].id)).toMatchObject({
      status: 400,
      body: { message: 'This merge request is closed. To apply this suggestion, edit this file directly.' },
    });
    await app.put(`${base}/merge_requests/${closing.iid}`, { state_event: 'reopen' }, { token: 'developer' });
    expect((await app.delete(`${base}/repository/branches/closing`, { token: 'maintainer' })).status).toBe(204);
    expect(await apply(note.suggestions[0].id)).toMatchObject({ status: 400, body: { message: "Can't apply as the source branch was deleted." } });
  });

  it('refuses suggestions of merged merge requests and forgets those of deleted notes', async () => {
    await commit('merging', { 'merged.txt': 'x\n' }, 'main');
    const merging = await openMergeRequest('merging');
    const { note } = await suggest(merging, '```suggestion\ny\n```', 1, 'developer', 'merged.txt');
    const { discussionId, note: removed } = await suggest(merging, '```suggestion\nz\n```', 1, 'developer', 'merged.txt');
    expect((await app.put(`${base}/merge_requests/${merging.iid}/merge`, {}, { token: 'maintainer' })).status).toBe(200);
    expect(await apply(note.suggestions[0].id)).toMatchObject({
      status: 400,
      body: { message: 'This merge request was merged. To apply this suggestion, edit this file directly.' },
    });
    const deleted = await app.delete(`${base}/merge_requests/${merging.iid}/discussions/${discussionId}/notes/${removed.id}`, { token: 'developer' });
    expect(deleted.status).toBe(204);
    expect(await apply(removed.suggestions[0].id)).toMatchObject({
      status: 404,
      body: { message: 'Suggestion is not applicable as the suggestion was not found.' },
    });
  });

  it('refuses a batch across merge requests, and forgets suggestions with their merge request', async () => {
    await commit('second', { 'app.txt': 'one\ntwo\n' }, 'main', []);
    const second = await openMergeRequest('second');
    const { note } = await suggest(second, '```suggestion\ndos\n```', 2);
    const refs = (await app.get(`${base}/merge_requests/${mr.iid}`, { token: 'developer' })).body.diff_refs;
    const { note: onFeature } = await suggest({ ...mr, refs }, '```suggestion\nuno\n```', 1);
    expect(await batch([onFeature.suggestions[0].id, note.suggestions[0].id])).toMatchObject({
      status: 400,
      body: { message: 'Suggestions must all be on the same branch.' },
    });
    expect((await app.delete(`${base}/merge_requests/${second.iid}`, { token: 'owner' })).status).toBe(204);
    expect(await apply(note.suggestions[0].id)).toMatchObject({ status: 404 });
  });

  it("drops a project's suggestions when the project is deleted", async () => {
    const { database } = app.kernel;
    const count = () => database.count(database.from(SuggestionEntity).where({ projectId: app.project.id }));
    expect(await count()).toBeGreaterThan(0);
    expect((await app.delete(base, { token: 'owner' })).status).toBe(202);
    expect(await count()).toBe(0);
  });
});
