import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { repositoryReadRef } from '@forgekit/plugin-repositories/contracts';
import { recordStatements } from '@forgekit/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mergeRequestsPlugin } from '../plugin.js';
import { diffLineKeys, INVALID_LINE, unchangedOutsideHunks } from './mr-positions.js';

let app: TestApp;
let base: string;
let refs: { base_sha: string; start_sha: string; head_sha: string };
let iid: number;

async function commit(branch: string, files: Record<string, string>, from?: string, update = false) {
  const res = await app.post(
    `${base}/repository/commits`,
    {
      branch,
      ...(from ? { start_branch: from } : {}),
      commit_message: `Change on ${branch}`,
      actions: Object.entries(files).map(([path, content]) => ({ action: update ? 'update' : 'create', file_path: path, content })),
    },
    { token: 'maintainer' },
  );
  expect(res.status).toBe(201);
}

beforeAll(async () => {
  app = await createTestApp({ plugins: [repositoriesPlugin, labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, mergeRequestsPlugin] });
  base = `/api/v4/projects/${app.project.id}`;
  await commit('main', { 'code.txt': 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n' });
  await commit('review', { 'code.txt': 'one\ntwo\nthree\nfour\nFIVE\nsix\nseven\neight\nnine\nten\n' }, 'main', true);
  const mr = await app.post(`${base}/merge_requests`, { title: 'Review', source_branch: 'review', target_branch: 'main', labels: 'a' }, { token: 'developer' });
  expect(mr.status).toBe(201);
  refs = mr.body.diff_refs;
  iid = mr.body.iid;
  for (let i = 1; i <= 5; i++) {
    await commit(`more-${i}`, { [`more-${i}.txt`]: `${i}\n` }, 'main');
    const more = await app.post(
      `${base}/merge_requests`,
      { title: `More ${i}`, source_branch: `more-${i}`, target_branch: 'main', labels: 'a', assignee_ids: [app.users.developer.id] },
      { token: 'developer' },
    );
    expect(more.status).toBe(201);
  }
  // The newest merge request is in another project with its own label `a`.
  const other = await app.post(
    '/api/v4/projects',
    { name: 'Other', path: 'other', namespace_id: app.group.id, initialize_with_readme: true },
    { token: 'owner' },
  );
  expect(other.status).toBe(201);
  const otherCommit = await app.post(
    `/api/v4/projects/${other.body.id}/repository/commits`,
    {
      branch: 'side',
      start_branch: other.body.default_branch,
      commit_message: 'Side',
      actions: [{ action: 'create', file_path: 'side.txt', content: 'side\n' }],
    },
    { token: 'owner' },
  );
  expect(otherCommit.status).toBe(201);
  const otherMr = await app.post(
    `/api/v4/projects/${other.body.id}/merge_requests`,
    { title: 'Elsewhere', source_branch: 'side', target_branch: other.body.default_branch, labels: 'a' },
    { token: 'owner' },
  );
  expect(otherMr.status).toBe(201);
});
afterAll(() => app.close());

describe('diff note positions', () => {
  const discussions = () => `${base}/merge_requests/${iid}/discussions`;
  const at = (lines: { new_line?: number; old_line?: number }, extra: Record<string, unknown> = {}) => ({
    ...refs,
    position_type: 'text',
    new_path: 'code.txt',
    old_path: 'code.txt',
    ...lines,
    ...extra,
  });

  it('takes added, removed and unchanged lines the diff shows, and unchanged lines outside its hunks (GitLab unfolds the diff)', async () => {
    for (const lines of [{ new_line: 5 }, { old_line: 5 }, { old_line: 3, new_line: 3 }, { old_line: 1, new_line: 1 }, { old_line: 10, new_line: 10 }]) {
      const res = await app.post(discussions(), { body: 'here', position: at(lines) }, { token: 'developer' });
      expect(res.status, JSON.stringify(lines)).toBe(201);
      expect(res.body.notes[0]).toMatchObject({ type: 'DiffNote', position: { new_path: 'code.txt', ...lines } });
    }
  });

  it('refuses lines outside the diff, lines of the wrong side, unknown files and shas with GitLab’s 400', async () => {
    const refused = [
      at({ new_line: 1 }),
      at({ old_line: 1 }),
      at({ old_line: 1, new_line: 2 }),
      at({ old_line: 11, new_line: 11 }),
      at({ new_line: 4 }),
      at({ old_line: 6 }),
      at({}),
      at({ new_line: 5 }, { new_path: 'other.txt', old_path: 'other.txt' }),
      at({ new_line: 5 }, { head_sha: 'f'.repeat(40) }),
      at({ new_line: 5 }, { head_sha: '--output=/tmp/forgekit-position' }),
    ];
    for (const position of refused) {
      const res = await app.post(discussions(), { body: 'there', position }, { token: 'developer' });
      expect(res, JSON.stringify(position)).toMatchObject({ status: 400, body: { message: `400 Bad request - ${INVALID_LINE}` } });
    }
  });

  it('numbers the unchanged lines between and below hunks by what the hunks above added and removed', () => {
    // Two lines added after old line 2, old lines 8 and 9 removed, in a file of 12 lines.
    const patch = '@@ -1,2 +1,4 @@\n a\n b\n+x\n+y\n@@ -7,3 +9,1 @@\n g\n-h\n-i\n@@ -11,0 +12,1 @@\n+z';
    expect(unchangedOutsideHunks(patch, 4, 6, 12)).toBe(true);
    expect(unchangedOutsideHunks(patch, 4, 4, 12)).toBe(false);
    expect(unchangedOutsideHunks(patch, 8, 10, 12)).toBe(false);
    expect(unchangedOutsideHunks(patch, 10, 10, 12)).toBe(true);
    expect(unchangedOutsideHunks(patch, 12, 13, 12)).toBe(true);
    expect(unchangedOutsideHunks(patch, 13, 14, 12)).toBe(false);
  });

  it('reads hunks into line keys', () => {
    const keys = diffLineKeys('@@ -3,3 +3,4 @@ intro\n three\n-four\n+FOUR\n+extra\n five\n\\ No newline at end of file');
    expect([...keys]).toEqual(['3:3', '4:', ':4', ':5', '5:6']);
  });
});

describe('the merge request list', () => {
  it('shows award votes as upvotes and downvotes', async () => {
    await app.post(`${base}/merge_requests/${iid}/award_emoji`, { name: 'thumbsup' }, { token: 'developer' });
    await app.post(`${base}/merge_requests/${iid}/award_emoji`, { name: 'thumbsdown' }, { token: 'reporter' });
    await app.post(`${base}/merge_requests/${iid}/award_emoji`, { name: 'thumbsup' }, { token: 'maintainer' });
    const res = await app.get(`${base}/merge_requests`, { token: 'developer', query: { iids: [iid] } });
    expect(res.body).toMatchObject([{ iid, upvotes: 2, downvotes: 1 }]);
  });

  it('costs the same statements whatever the page size, across projects', async () => {
    const log = recordStatements(app.kernel);
    try {
      const statementsOf = (perPage: number) =>
        log.during(async () => {
          const res = await app.get('/api/v4/merge_requests', { token: 'owner', query: { scope: 'all', state: 'opened', labels: 'a', per_page: perPage } });
          expect(res.status).toBe(200);
          expect(res.body).toHaveLength(perPage);
        });
      // Reads only: a write another part of the server makes meanwhile (a token's last-use stamp) is not the page's.
      const reads = (statements: string[]) => statements.filter((statement) => /^\s*select/i.test(statement));
      const two = reads(await statementsOf(2));
      const six = reads(await statementsOf(6));
      expect(six.length, six.join('\n')).toBe(two.length);
      // token, visible projects, carried labels, those labels, the page with its total, each of the two
      // projects and each repository, assignees and reviewers, label links, note counts, award votes, users, labels
      expect(six.length, six.join('\n')).toBeLessThanOrEqual(15);
    } finally {
      log.stop();
    }
  });

  it('runs no git for a page whose commit pairs it has seen', async () => {
    const reads = app.kernel.resolve(repositoryReadRef);
    const list = () => app.get(`${base}/merge_requests`, { token: 'developer', query: { state: 'opened' } });
    expect((await list()).status).toBe(200);
    const spies = (['mergeBase', 'checkMerge', 'diff', 'listCommits', 'resolveCommit'] as const).map((name) => vi.spyOn(reads, name));
    try {
      // A new commit is a pair not seen yet: git runs once for it, then no more.
      await commit('more-1', { 'more-1.txt': 'changed\n' }, undefined, true);
      expect((await list()).status).toBe(200);
      expect(spies[1]).toHaveBeenCalledTimes(1);
      for (const spy of spies) spy.mockClear();
      const res = await list();
      expect(res.body.map((mr: { detailed_merge_status: string }) => mr.detailed_merge_status)).toContain('mergeable');
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});

describe('list orders that need other plugins', () => {
  const titles = async (query: Record<string, unknown>) =>
    (await app.get(`${base}/merge_requests`, { token: 'developer', query: { state: 'opened', per_page: 100, ...query } })).body.map(
      (mr: { title: string }) => mr.title,
    );
  const iidOf = async (title: string) => (await app.get(`${base}/merge_requests`, { token: 'developer', query: { search: title } })).body[0].iid as number;

  it('popularity: most upvotes first, then newest first; ascending turns it round', async () => {
    await app.post(`${base}/merge_requests/${await iidOf('More 1')}/award_emoji`, { name: 'thumbsup' }, { token: 'developer' });
    // `Review` has two upvotes and one downvote from the list test above.
    expect(await titles({ order_by: 'popularity' })).toEqual(['Review', 'More 1', 'More 5', 'More 4', 'More 3', 'More 2']);
    expect(await titles({ order_by: 'popularity', sort: 'asc' })).toEqual(['More 5', 'More 4', 'More 3', 'More 2', 'More 1', 'Review']);
    // A page where nobody voted.
    expect(await titles({ order_by: 'popularity', search: 'More 4' })).toEqual(['More 4']);
  });

  it('label_priority and priority: the highest priority of the labels first, merge requests without one last', async () => {
    for (const [name, priority] of [
      ['p1', 1],
      ['p5', 5],
    ] as const) {
      expect((await app.post(`${base}/labels`, { name, color: '#FF0000', priority }, { token: 'maintainer' })).status).toBe(201);
    }
    await app.put(`${base}/merge_requests/${await iidOf('More 2')}`, { add_labels: 'p5' }, { token: 'developer' });
    await app.put(`${base}/merge_requests/${await iidOf('More 3')}`, { add_labels: 'p1,p5' }, { token: 'developer' });
    expect(await titles({ order_by: 'label_priority', sort: 'asc' })).toEqual(['More 3', 'More 2', 'More 5', 'More 4', 'More 1', 'Review']);
    expect(await titles({ order_by: 'priority', sort: 'asc' })).toEqual(['More 3', 'More 2', 'More 5', 'More 4', 'More 1', 'Review']);
    // Labels the list filters by do not count.
    expect(await titles({ order_by: 'label_priority', sort: 'asc', labels: 'p1' })).toEqual(['More 3']);
    expect(await titles({ order_by: 'label_priority', sort: 'asc', labels: 'p5' })).toEqual(['More 3', 'More 2']);
  });
});

describe('the /merge quick action', () => {
  it('merges with the head the author saw, when the author may merge; otherwise leaves the merge request open and the command in the note', async () => {
    await commit('quick', { 'quick.txt': 'quick\n' }, 'main');
    const mr = (await app.post(`${base}/merge_requests`, { title: 'Quick', source_branch: 'quick', target_branch: 'main' }, { token: 'developer' })).body;
    const head = mr.diff_refs.head_sha as string;
    const notes = `${base}/merge_requests/${mr.iid}/notes`;
    const state = async () => (await app.get(`${base}/merge_requests/${mr.iid}`, { token: 'developer' })).body.state;

    // Developers may not merge into the protected default branch: for them `/merge` is no command, and stays text.
    const kept = await app.post(notes, { body: '/merge', merge_request_diff_head_sha: head }, { token: 'developer' });
    expect(kept).toMatchObject({ status: 201, body: { body: '/merge', system: false } });
    expect(await state()).toBe('opened');

    // No sha, or a stale one, merges nothing.
    for (const [token, sha] of [
      ['maintainer', undefined],
      ['maintainer', 'f'.repeat(40)],
    ] as const) {
      const res = await app.post(notes, { body: '/merge', ...(sha ? { merge_request_diff_head_sha: sha } : {}) }, { token });
      expect(res, `${token} ${sha}`).toMatchObject({ status: 202, body: { commands_changes: {}, summary: [] } });
      expect(await state()).toBe('opened');
    }

    const merged = await app.post(notes, { body: '/merge', merge_request_diff_head_sha: head }, { token: 'maintainer' });
    expect(merged).toMatchObject({ status: 202, body: { commands_changes: { merge: head }, summary: ['Merged this merge request.'] } });
    const after = (await app.get(`${base}/merge_requests/${mr.iid}`, { token: 'developer' })).body;
    expect(after).toMatchObject({ state: 'merged', merged_by: { username: 'maintainer' } });
  });
});
