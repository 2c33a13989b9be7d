import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { recordStatements } from '@forgekit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeRequestsPlugin } from '../plugin.js';

let app: TestApp;
let base: string;

/** One commit of files on a branch through the API (the branch starts from `from` when new). */
async function commit(branch: string, files: Record<string, string>, from?: string) {
  const tree = await app.get(`${base}/repository/tree`, { token: 'maintainer', query: { ref: from ?? branch, per_page: 100 } });
  const existing = new Set(tree.status === 200 ? tree.body.map((entry: { path: string }) => entry.path) : []);
  const res = await app.post(
    `${base}/repository/commits`,
    {
      branch,
      ...(from ? { start_branch: from } : {}),
      commit_message: `Change ${Object.keys(files).join(', ')} on ${branch}`,
      actions: Object.entries(files).map(([path, content]) => ({ action: existing.has(path) ? 'update' : 'create', file_path: path, content })),
    },
    { token: 'maintainer' },
  );
  expect(res.status).toBe(201);
  return res.body.id as string;
}

const open = (body: Record<string, unknown>, token = 'developer') => app.post(`${base}/merge_requests`, body, { token });

beforeAll(async () => {
  app = await createTestApp({ plugins: [repositoriesPlugin, labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, mergeRequestsPlugin] });
  base = `/api/v4/projects/${app.project.id}`;
  await commit('main', { 'README.md': 'hello\n', 'shared.txt': 'one\ntwo\nthree\n' });
});
afterAll(() => app.close());

describe('creating merge requests', () => {
  it('opens one with a per-project iid, git refs and GitLab fields', async () => {
    const head = await commit('feature', { 'feature.txt': 'new\n' }, 'main');
    const main = (await app.get(`${base}/repository/branches/main`, { token: 'maintainer' })).body.commit.id;
    const res = await open({ title: 'Add feature', source_branch: 'feature', target_branch: 'main', description: '- [x] a\n- [ ] b' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      iid: 1,
      project_id: app.project.id,
      title: 'Add feature',
      state: 'opened',
      source_branch: 'feature',
      target_branch: 'main',
      draft: false,
      sha: head,
      merge_commit_sha: null,
      merged_by: null,
      detailed_merge_status: 'mergeable',
      merge_status: 'can_be_merged',
      has_conflicts: false,
      changes_count: '1',
      diff_refs: { base_sha: main, head_sha: head, start_sha: main },
      task_completion_status: { count: 2, completed_count: 1 },
      author: { username: 'developer' },
      references: { short: '!1' },
    });
  });

  it('answers 409 for a second open merge request of the same branches', async () => {
    const res = await open({ title: 'Again', source_branch: 'feature', target_branch: 'main' });
    expect(res).toMatchObject({ status: 409, body: { message: ['Another open merge request already exists for this source branch: !1'] } });
  });

  it('answers 422 for missing or identical branches', async () => {
    expect(await open({ title: 'x', source_branch: 'nope', target_branch: 'gone' })).toMatchObject({
      status: 422,
      body: { message: ['Source branch "nope" does not exist', 'Target branch "gone" does not exist'] },
    });
    expect(await open({ title: 'x', source_branch: 'main', target_branch: 'main' })).toMatchObject({
      status: 422,
      body: { message: ['You must select different branches'] },
    });
  });

  it('answers 400 for missing params and a blank title, 403 to Reporters, 404 to outsiders', async () => {
    expect(await open({ source_branch: 'feature', target_branch: 'main' })).toMatchObject({ status: 400, body: { error: 'title is missing' } });
    expect(await open({ title: ' ', source_branch: 'feature', target_branch: 'main' })).toMatchObject({
      status: 400,
      body: { message: { title: ["can't be blank"] } },
    });
    expect((await open({ title: 'x', source_branch: 'feature', target_branch: 'main' }, 'reporter')).status).toBe(403);
    expect((await open({ title: 'x', source_branch: 'feature', target_branch: 'main' }, 'nonMember')).status).toBe(404);
  });

  it('marks drafts from the title prefix', async () => {
    await commit('drafty', { 'draft.txt': 'd\n' }, 'main');
    const res = await open({ title: 'Draft: not yet', source_branch: 'drafty', target_branch: 'main' });
    expect(res.body).toMatchObject({ iid: 2, draft: true, work_in_progress: true, detailed_merge_status: 'draft_status' });
  });
});

describe('reading and updating', () => {
  it('gets one, 404 Not found for an unknown iid', async () => {
    expect((await app.get(`${base}/merge_requests/1`, { token: 'reporter' })).body).toMatchObject({ iid: 1, user: { can_merge: false } });
    expect(await app.get(`${base}/merge_requests/99`, { token: 'reporter' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });

  it('updates labels, assignees, reviewers and the milestone, recording milestone events', async () => {
    const milestone = await app.post(`${base}/milestones`, { title: 'v1' }, { token: 'maintainer' });
    const res = await app.put(
      `${base}/merge_requests/1`,
      { labels: 'bug,ui', assignee_ids: [app.users.developer.id], reviewer_ids: [app.users.maintainer.id], milestone_id: milestone.body.id },
      { token: 'developer' },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      labels: ['bug', 'ui'],
      assignees: [{ username: 'developer' }],
      reviewers: [{ username: 'maintainer' }],
      milestone: { title: 'v1' },
    });
    const events = await app.get(`${base}/merge_requests/1/resource_milestone_events`, { token: 'developer' });
    expect(events.body).toMatchObject([{ action: 'add', resource_type: 'MergeRequest', resource_id: res.body.id, milestone: { title: 'v1' } }]);
  });

  it('closes and reopens with system notes; 400 when nothing is given', async () => {
    expect((await app.put(`${base}/merge_requests/2`, { state_event: 'close' }, { token: 'developer' })).body).toMatchObject({
      state: 'closed',
      closed_by: { username: 'developer' },
      detailed_merge_status: 'not_open',
    });
    expect((await app.put(`${base}/merge_requests/2`, { state_event: 'reopen' }, { token: 'developer' })).body).toMatchObject({
      state: 'opened',
      closed_by: null,
    });
    const notes = await app.get(`${base}/merge_requests/2/notes`, { token: 'developer', query: { sort: 'asc' } });
    expect(notes.body.map((note: { body: string }) => note.body)).toEqual(['closed', 'reopened']);
    expect((await app.put(`${base}/merge_requests/2`, {}, { token: 'developer' })).status).toBe(400);
    expect((await app.put(`${base}/merge_requests/2`, { title: 'x' }, { token: 'reporter' })).status).toBe(403);
  });
});

describe('lists', () => {
  it('filters by state, labels, draft and source branch, with pagination headers', async () => {
    const all = await app.get(`${base}/merge_requests`, { token: 'reporter', query: { per_page: 1 } });
    expect(all.headers.get('x-total')).toBe('2');
    expect(all.body.map((mr: { iid: number }) => mr.iid)).toEqual([2]);
    const labelled = await app.get(`${base}/merge_requests`, { token: 'reporter', query: { labels: 'bug' } });
    expect(labelled.body.map((mr: { iid: number }) => mr.iid)).toEqual([1]);
    const drafts = await app.get(`${base}/merge_requests`, { token: 'reporter', query: { wip: 'yes' } });
    expect(drafts.body.map((mr: { iid: number }) => mr.iid)).toEqual([2]);
    const branch = await app.get(`${base}/merge_requests`, { token: 'reporter', query: { source_branch: 'feature', view: 'simple' } });
    expect(Object.keys(branch.body[0]).sort()).toEqual(['created_at', 'description', 'id', 'iid', 'project_id', 'state', 'title', 'updated_at', 'web_url']);
  });

  it('lists at group level, with labels details, wildcards and negated filters', async () => {
    const group = await app.get(`/api/v4/groups/${app.group.id}/merge_requests`, { token: 'reporter', query: { labels: 'bug', with_labels_details: true } });
    expect(group.body).toMatchObject([{ iid: 1, labels: [{ name: 'bug' }, { name: 'ui' }] }]);
    const labels = await app.get(`${base}/labels`, { token: 'reporter', query: { with_counts: true, search: 'bug' } });
    expect(labels.body).toMatchObject([{ name: 'bug', open_merge_requests_count: 1 }]);
    const iids = async (query: Record<string, string | number | boolean>) =>
      (await app.get(`${base}/merge_requests`, { token: 'reporter', query })).body.map((mr: { iid: number }) => mr.iid);
    expect(await iids({ assignee_id: 'Any' })).toEqual([1]);
    expect(await iids({ assignee_id: 'None' })).toEqual([2]);
    expect(await iids({ reviewer_username: 'maintainer' })).toEqual([1]);
    expect(await iids({ 'not[labels]': 'bug' })).toEqual([2]);
    expect(await iids({ milestone: 'v1' })).toEqual([1]);
    expect(await iids({ search: 'feature', in: 'title' })).toEqual([1]);
    expect(await iids({ order_by: 'title', sort: 'asc' })).toEqual([1, 2]);
    expect(await iids({ environment: 'production' })).toEqual([]);
    expect((await app.get(`${base}/merge_requests`, { token: 'reporter', query: { state: 'bogus' } })).body).toEqual({
      error: 'state does not have a valid value',
    });
  });

  it('lists across several projects by label, each merge request with all of its labels', async () => {
    expect((await app.post('/api/v4/projects', { name: 'elsewhere' }, { token: 'admin' })).status).toBe(201);
    const listed = await app.get('/api/v4/merge_requests', { token: 'admin', query: { scope: 'all', labels: 'bug', with_labels_details: true } });
    expect(listed.body).toMatchObject([{ iid: 1, project_id: app.project.id, labels: [{ name: 'bug' }, { name: 'ui' }] }]);
    const plain = await app.get('/api/v4/merge_requests', { token: 'admin', query: { scope: 'all', labels: 'ui' } });
    expect(plain.body).toMatchObject([{ iid: 1, labels: ['bug', 'ui'] }]);
  });

  it('lists every project to an admin at instance scope, with the filters that need the projects listed', async () => {
    const iids = async (query: Record<string, string | number | boolean>) => {
      const res = await app.get('/api/v4/merge_requests', { token: 'admin', query: { scope: 'all', ...query } });
      expect(res.status).toBe(200);
      return res.body.map((mr: { iid: number }) => mr.iid);
    };
    const log = recordStatements(app.kernel);
    try {
      const read = await log.during(async () => expect(await iids({ state: 'opened', labels: 'bug' })).toEqual([1]));
      expect(
        // The presenter still reads each page's project; no statement reads the ids of the visible ones.
        read.filter((text) => /^select [`"]p[`"]\.[`"]id[`"] from/i.test(text)),
        read.join('\n'),
      ).toEqual([]);
    } finally {
      log.stop();
    }
    expect(await iids({ labels: 'ui,bug' })).toEqual([1]);
    expect(await iids({ labels: 'nonesuch' })).toEqual([]);
    expect(await iids({ milestone: 'v1' })).toEqual([1]);
    expect(await iids({ 'not[milestone]': 'v1' })).toEqual([2]);
    expect(await iids({ source_project_id: app.project.id })).toEqual([2, 1]);
    expect(await iids({ source_project_id: 999_999 })).toEqual([]);
  });

  it('lists the caller own merge requests at /merge_requests, and needs scope=all when anonymous', async () => {
    const mine = await app.get('/api/v4/merge_requests', { token: 'developer' });
    expect(mine.body.map((mr: { iid: number }) => mr.iid)).toEqual([2, 1]);
    expect((await app.get('/api/v4/merge_requests', { token: 'maintainer' })).body).toEqual([]);
    expect(await app.get('/api/v4/merge_requests')).toMatchObject({ status: 401 });
    expect(await app.get('/api/v4/merge_requests', { query: { scope: 'all' } })).toMatchObject({ status: 200, body: [] });
    expect((await app.get(`${base}/merge_requests`)).status).toBe(404);
    expect(await app.get('/api/v4/merge_requests', { token: 'developer', query: { author_id: 1, author_username: 'x' } })).toMatchObject({
      status: 400,
      body: { error: 'author_id, author_username are mutually exclusive' },
    });
    const reviews = await app.get('/api/v4/merge_requests', { token: 'maintainer', query: { scope: 'reviews_for_me' } });
    expect(reviews.body.map((mr: { iid: number }) => mr.iid)).toEqual([1]);
  });
});

describe('diffs, commits and merging', () => {
  it('serves the changes, diffs and commits from git', async () => {
    const changes = await app.get(`${base}/merge_requests/1/changes`, { token: 'reporter' });
    expect(changes.body.changes).toMatchObject([{ new_path: 'feature.txt', new_file: true, diff: expect.stringContaining('+new') }]);
    const diffs = await app.get(`${base}/merge_requests/1/diffs`, { token: 'reporter' });
    expect(diffs.body).toMatchObject([{ new_path: 'feature.txt' }]);
    expect(diffs.headers.get('x-total')).toBe('1');
    const commits = await app.get(`${base}/merge_requests/1/commits`, { token: 'reporter' });
    expect(commits.body).toMatchObject([{ title: 'Change feature.txt on feature' }]);
  });

  it('refuses drafts (405) and a stale sha (409); merges with a merge commit on the target branch', async () => {
    expect(await app.put(`${base}/merge_requests/2/merge`, {}, { token: 'maintainer' })).toMatchObject({
      status: 405,
      body: { message: '405 Method Not Allowed' },
    });
    const head = (await app.get(`${base}/merge_requests/1`, { token: 'reporter' })).body.sha;
    expect(await app.put(`${base}/merge_requests/1/merge`, { sha: '0'.repeat(40) }, { token: 'maintainer' })).toMatchObject({
      status: 409,
      body: { message: `SHA does not match HEAD of source branch: ${head}` },
    });
    const res = await app.put(`${base}/merge_requests/1/merge`, { sha: head }, { token: 'maintainer' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: 'merged', merged_by: { username: 'maintainer' }, detailed_merge_status: 'not_open', sha: head });
    const main = (await app.get(`${base}/repository/commits/main`, { token: 'maintainer' })).body;
    expect(main.id).toBe(res.body.merge_commit_sha);
    expect(main.parent_ids).toHaveLength(2);
    expect(main.parent_ids[1]).toBe(head);
    expect(main.message).toContain("Merge branch 'feature' into 'main'");
    expect(await app.put(`${base}/merge_requests/1/merge`, {}, { token: 'maintainer' })).toMatchObject({ status: 405 });
    const merged = await app.get(`${base}/merge_requests`, { token: 'reporter', query: { state: 'merged' } });
    expect(merged.body.map((mr: { iid: number }) => mr.iid)).toEqual([1]);
  });

  it('answers 401 to callers who may not merge into the target branch', async () => {
    await commit('other', { 'other.txt': 'o\n' }, 'main');
    const mr = await open({ title: 'Other', source_branch: 'other', target_branch: 'main' });
    expect(await app.put(`${base}/merge_requests/${mr.body.iid}/merge`, {}, { token: 'reporter' })).toMatchObject({ status: 401 });
  });

  it('reports conflicts from git and refuses to merge them', async () => {
    await commit('left', { 'shared.txt': 'one\nLEFT\nthree\n' }, 'main');
    await commit('main', { 'shared.txt': 'one\nMAIN\nthree\n' });
    const mr = await open({ title: 'Conflicting', source_branch: 'left', target_branch: 'main' });
    expect(mr.body).toMatchObject({ has_conflicts: true, detailed_merge_status: 'conflict', merge_status: 'cannot_be_merged' });
    expect((await app.put(`${base}/merge_requests/${mr.body.iid}/merge`, {}, { token: 'maintainer' })).status).toBe(405);
  });
});

describe('pushes and merge methods', () => {
  it('notes the commits a push adds to the source branch', async () => {
    await commit('pushed', { 'p.txt': '1\n' }, 'main');
    const mr = await open({ title: 'Pushed', source_branch: 'pushed', target_branch: 'main' });
    const sha = await commit('pushed', { 'p.txt': '2\n' });
    const notes = await app.get(`${base}/merge_requests/${mr.body.iid}/notes`, { token: 'developer' });
    expect(notes.body.map((note: { body: string }) => note.body)).toEqual([`added 1 commit\n\n<ul><li>${sha.slice(0, 8)} - Change p.txt on pushed</li></ul>`]);
    expect(notes.body[0]).toMatchObject({ system: true, author: { username: 'maintainer' } });
    const versions = await app.get(`${base}/merge_requests/${mr.body.iid}/versions`, { token: 'reporter' });
    expect(versions.body).toMatchObject([{ head_commit_sha: sha, state: 'collected' }, { head_commit_sha: mr.body.sha }]);
    const latest = await app.get(`${base}/merge_requests/${mr.body.iid}/versions/${versions.body[0].id}`, { token: 'reporter' });
    expect(latest.body).toMatchObject({ head_commit_sha: sha, commits: [{ id: sha }, { id: mr.body.sha }], diffs: [{ new_path: 'p.txt', new_file: true }] });
    const first = await app.get(`${base}/merge_requests/${mr.body.iid}/versions/${versions.body[1].id}`, { token: 'reporter' });
    expect(first.body.commits).toMatchObject([{ id: mr.body.sha }]);
    expect(await app.get(`${base}/merge_requests/${mr.body.iid}/versions/999999`, { token: 'reporter' })).toMatchObject({
      status: 404,
      body: { message: '404 Not found' },
    });
  });

  it('fast-forwards with the ff merge method, refuses when a rebase is needed, and removes the source branch when asked', async () => {
    expect((await app.put(base, { merge_method: 'ff' }, { token: 'maintainer' })).status).toBe(200);
    await commit('behind', { 'b.txt': 'b\n' }, 'main');
    await commit('main', { 'm.txt': 'm\n' });
    const behind = await open({ title: 'Behind', source_branch: 'behind', target_branch: 'main' });
    expect(behind.body.detailed_merge_status).toBe('need_rebase');
    expect((await app.put(`${base}/merge_requests/${behind.body.iid}/merge`, {}, { token: 'maintainer' })).status).toBe(405);

    const head = await commit('ahead', { 'a.txt': 'a\n' }, 'main');
    const ahead = await open({ title: 'Ahead', source_branch: 'ahead', target_branch: 'main' });
    const res = await app.put(`${base}/merge_requests/${ahead.body.iid}/merge`, { should_remove_source_branch: true }, { token: 'maintainer' });
    expect(res.body).toMatchObject({ state: 'merged', merge_commit_sha: null, sha: head });
    expect((await app.get(`${base}/repository/commits/main`, { token: 'maintainer' })).body.id).toBe(head);
    expect((await app.get(`${base}/repository/branches/ahead`, { token: 'maintainer' })).status).toBe(404);
    expect((await app.put(base, { merge_method: 'merge' }, { token: 'maintainer' })).status).toBe(200);
  });
  it('squashes the source commits into one commit before merging when asked', async () => {
    await commit('squashy', { 's1.txt': '1\n' }, 'main');
    await commit('squashy', { 's2.txt': '2\n' });
    const mr = await open({ title: 'Squash me', source_branch: 'squashy', target_branch: 'main' });
    const res = await app.put(`${base}/merge_requests/${mr.body.iid}/merge`, { squash: true }, { token: 'maintainer' });
    expect(res.body).toMatchObject({ state: 'merged', squash: true, squash_commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
    const main = (await app.get(`${base}/repository/commits/main`, { token: 'maintainer' })).body;
    expect(main.id).toBe(res.body.merge_commit_sha);
    expect(main.parent_ids[1]).toBe(res.body.squash_commit_sha);
    const squashed = (await app.get(`${base}/repository/commits/${res.body.squash_commit_sha}`, { token: 'maintainer' })).body;
    expect(squashed).toMatchObject({ title: 'Squash me', parent_ids: [main.parent_ids[0]] });
    const files = (await app.get(`${base}/repository/tree`, { token: 'maintainer', query: { ref: 'main' } })).body.map((entry: { path: string }) => entry.path);
    expect(files).toEqual(expect.arrayContaining(['s1.txt', 's2.txt']));
  });
});

describe('deleting', () => {
  it('hands a deleted author merge requests to the Ghost User and drops them as assignee', async () => {
    const user = await app.post(
      '/api/v4/users',
      { username: 'leaver', name: 'Leaver', email: 'leaver@example.com', password: 'password1234' },
      { token: 'admin' },
    );
    await app.post(`${base}/members`, { user_id: user.body.id, access_level: 30 }, { token: 'owner' });
    const token = await app.post(`/api/v4/users/${user.body.id}/personal_access_tokens`, { name: 't', scopes: ['api'] }, { token: 'admin' });
    await commit('leaving', { 'l.txt': 'l\n' }, 'main');
    const mr = await open({ title: 'Left behind', source_branch: 'leaving', target_branch: 'main', assignee_ids: [user.body.id] }, token.body.token);
    expect(mr.status).toBe(201);
    expect((await app.delete(`/api/v4/users/${user.body.id}`, { token: 'admin' })).status).toBe(204);
    const shown = await app.get(`${base}/merge_requests/${mr.body.iid}`, { token: 'maintainer' });
    expect(shown.body).toMatchObject({ author: { username: 'ghost' }, assignees: [] });
  });
  it('shows the Ghost User as the merger a deleted user was, and forgets who closed', async () => {
    const leaver = await app.post(
      '/api/v4/users',
      { username: 'merging-leaver', name: 'Merging Leaver', email: 'merging-leaver@example.com', password: 'password1234' },
      { token: 'admin' },
    );
    await app.post(`${base}/members`, { user_id: leaver.body.id, access_level: 40 }, { token: 'owner' });
    const token = (await app.post(`/api/v4/users/${leaver.body.id}/personal_access_tokens`, { name: 't', scopes: ['api'] }, { token: 'admin' })).body.token;
    await commit('merged-by-leaver', { 'merged-by-leaver.txt': 'm\n' }, 'main');
    await commit('closed-by-leaver', { 'closed-by-leaver.txt': 'c\n' }, 'main');
    const merged = (await open({ title: 'Merged by a leaver', source_branch: 'merged-by-leaver', target_branch: 'main' })).body;
    const closed = (await open({ title: 'Closed by a leaver', source_branch: 'closed-by-leaver', target_branch: 'main' })).body;
    expect((await app.put(`${base}/merge_requests/${merged.iid}/merge`, {}, { token })).body.merged_by).toMatchObject({ username: 'merging-leaver' });
    expect((await app.put(`${base}/merge_requests/${closed.iid}`, { state_event: 'close' }, { token })).body.closed_by).toMatchObject({
      username: 'merging-leaver',
    });

    expect((await app.delete(`/api/v4/users/${leaver.body.id}`, { token: 'admin' })).status).toBe(204);
    const ghost = { username: 'ghost', name: 'Ghost User' };
    const shown = (await app.get(`${base}/merge_requests/${merged.iid}`, { token: 'maintainer' })).body;
    expect(shown).toMatchObject({ author: { username: 'developer' }, merged_by: ghost, merge_user: ghost });
    const listed = (await app.get(`${base}/merge_requests`, { token: 'maintainer', query: { state: 'merged', per_page: 100 } })).body;
    expect(listed.find((item: { iid: number }) => item.iid === merged.iid)).toMatchObject({ merged_by: ghost, merge_user: ghost });
    expect((await app.get(`${base}/merge_requests/${closed.iid}`, { token: 'maintainer' })).body).toMatchObject({ state: 'closed', closed_by: null });
  });
  it('lets only owners delete, and deleting the project removes its merge requests', async () => {
    expect((await app.delete(`${base}/merge_requests/2`, { token: 'maintainer' })).status).toBe(403);
    expect((await app.delete(`${base}/merge_requests/2`, { token: 'owner' })).status).toBe(204);
    expect((await app.get(`${base}/merge_requests/2`, { token: 'owner' })).status).toBe(404);
    expect(await app.delete(`${base}/merge_requests/2`, { token: 'owner' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });
  it('never gives a deleted merge request’s iid again', async () => {
    await commit('iid-one', { 'iid-one.txt': '1\n' }, 'main');
    await commit('iid-two', { 'iid-two.txt': '2\n' }, 'main');
    const highest = await open({ title: 'Highest', source_branch: 'iid-one', target_branch: 'main' });
    expect(highest.status).toBe(201);
    expect((await app.delete(`${base}/merge_requests/${highest.body.iid}`, { token: 'owner' })).status).toBe(204);
    const next = await open({ title: 'After a delete', source_branch: 'iid-two', target_branch: 'main' });
    expect(next).toMatchObject({ status: 201, body: { iid: highest.body.iid + 1 } });
  });
});
