import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccessLevel } from '@gitbeaker/rest';
import { corePlugin } from '@forgekit/plugin-core';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { mergeRequestsPlugin } from '@forgekit/plugin-merge-requests';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';
import { python } from './support/python-gitlab.js';
import { gitCli } from './support/git-cli.js';

/**
 * The review flow: a developer pushes a branch with git, opens a merge request with
 * @gitbeaker/rest, reads its diff and commits, and a maintainer merges it; git then sees
 * the merge commit on the target branch.
 */
describe('merge requests through @gitbeaker/rest and git', () => {
  let server: ListeningServer;
  let admin: Api;
  let dev: UserWithToken;
  let work: string;
  let project: { id: number; http_url_to_repo: string };
  let clone: string;

  const gitIn = (cwd: string, ...args: string[]) => gitCli(work).ok(cwd, ...args);

  beforeAll(async () => {
    server = await startListeningServer([
      corePlugin,
      repositoriesPlugin,
      labelsPlugin,
      milestonesPlugin,
      milestoneEventsPlugin,
      notesPlugin,
      mergeRequestsPlugin,
    ]);
    admin = clientFor(server, server.rootToken);
    work = await mkdtemp(join(tmpdir(), 'forgekit-mr-blackbox-'));
    const group = await admin.Groups.create('Review', 'review');
    project = (await admin.Projects.create({ name: 'App', path: 'app', namespaceId: group.id, initializeWithReadme: true })) as unknown as typeof project;
    dev = await createUserWithToken(admin, server, 'reviewdev');
    await admin.ProjectMembers.add(project.id, AccessLevel.DEVELOPER, { userId: dev.id });
    clone = join(work, 'app');
    await gitIn(work, 'clone', '--quiet', project.http_url_to_repo.replace('://', `://reviewdev:${dev.token}@`), clone);
    await gitIn(clone, 'checkout', '--quiet', '-b', 'feature');
    await writeFile(join(clone, 'feature.md'), 'a feature\n');
    await gitIn(clone, 'add', 'feature.md');
    await gitIn(clone, 'commit', '--quiet', '-m', 'Add the feature');
    await gitIn(clone, 'push', '--quiet', 'origin', 'feature');
  });
  afterAll(async () => {
    await server?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('opens a merge request from a pushed branch, with its diff and commits from git', async () => {
    const milestone = await admin.ProjectMilestones.create(project.id, 'v1');
    const mr = await dev.api.MergeRequests.create(project.id, 'feature', 'main', 'Add the feature', {
      description: 'Adds it.',
      labels: 'feature',
      milestoneId: milestone.id,
    });
    const head = await gitIn(clone, 'rev-parse', 'HEAD');
    const main = await gitIn(clone, 'rev-parse', 'origin/main');
    expect(mr).toMatchObject({
      iid: 1,
      state: 'opened',
      sha: head,
      labels: ['feature'],
      milestone: { title: 'v1' },
      detailed_merge_status: 'mergeable',
      diff_refs: { base_sha: main, head_sha: head, start_sha: main },
      changes_count: '1',
    });
    const diffs = await dev.api.MergeRequests.allDiffs(project.id, 1);
    expect(diffs.map((diff) => [diff.new_path, diff.new_file])).toEqual([['feature.md', true]]);
    const commits = await dev.api.MergeRequests.allCommits(project.id, 1);
    expect(commits.map((commit) => commit.id)).toEqual([head]);
    const events = await dev.api.MergeRequestMilestoneEvents.all(project.id, 1);
    expect(events).toMatchObject([{ action: 'add', resource_type: 'MergeRequest', milestone: { title: 'v1' } }]);

    expect(await failureOf(dev.api.MergeRequests.create(project.id, 'feature', 'main', 'Again'))).toEqual({
      status: 409,
      description: JSON.stringify(['Another open merge request already exists for this source branch: !1']),
    });
  });

  it('lists it by filter and lets only who may merge into main merge it', async () => {
    const listed = await dev.api.MergeRequests.all({ projectId: project.id, state: 'opened', labels: 'feature' });
    expect(listed.map((mr) => mr.iid)).toEqual([1]);
    const mine = await dev.api.MergeRequests.all({});
    expect(mine.map((mr) => mr.iid)).toEqual([1]);
    // main is protected by default: Developers may not merge into it.
    expect((await failureOf(dev.api.MergeRequests.merge(project.id, 1))).status).toBe(401);
  });

  it('takes diff threads on lines of the diff and refuses lines outside it', async () => {
    const mr = await dev.api.MergeRequests.show(project.id, 1);
    const refs = mr.diff_refs as { base_sha: string; start_sha: string; head_sha: string };
    const at = (line: number) => ({ ...refs, position_type: 'text', old_path: 'feature.md', new_path: 'feature.md', new_line: line }) as never;
    const thread = await dev.api.MergeRequestDiscussions.create(project.id, 1, 'On the new line', { position: at(1) });
    expect(thread.notes![0]).toMatchObject({ type: 'DiffNote', position: { new_path: 'feature.md', new_line: 1 } });
    expect(await failureOf(dev.api.MergeRequestDiscussions.create(project.id, 1, 'Past the end', { position: at(2) }))).toMatchObject({
      status: 400,
      description: '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}',
    });
  });

  it('merges with a real merge commit that git sees on the target branch', async () => {
    const head = await gitIn(clone, 'rev-parse', 'HEAD');
    const merged = await admin.MergeRequests.merge(project.id, 1, { sha: head, shouldRemoveSourceBranch: true });
    expect(merged).toMatchObject({ state: 'merged', merged_by: { username: 'root' } });
    await gitIn(clone, 'fetch', '--quiet', '--prune', 'origin');
    expect(await gitIn(clone, 'rev-parse', 'origin/main')).toBe(merged.merge_commit_sha);
    expect(await gitIn(clone, 'log', '-1', '--format=%P', 'origin/main')).toContain(head);
    expect(await gitIn(clone, 'log', '-1', '--format=%s', 'origin/main')).toBe("Merge branch 'feature' into 'main'");
    expect(await gitIn(clone, 'branch', '-r')).not.toContain('origin/feature');
    expect(await failureOf(admin.MergeRequests.merge(project.id, 1))).toEqual({ status: 405, description: '405 Method Not Allowed' });
  });

  it('reads the merged merge request and its changes with python-gitlab', async () => {
    const read = await python(
      server,
      dev.token,
      `mr = gl.projects.get(${project.id}).mergerequests.get(1)\nprint(json.dumps([mr.state, mr.merged_by['username'], [c['new_path'] for c in mr.changes()['changes']]]))`,
    );
    expect(read).toEqual(['merged', 'root', ['feature.md']]);
  });

  it('removes the merge requests with the project', async () => {
    await admin.Projects.remove(project.id);
    expect((await failureOf(admin.MergeRequests.show(project.id, 1))).status).toBe(404);
    expect(await admin.MergeRequests.all({ scope: 'all' })).toEqual([]);
  });
});
