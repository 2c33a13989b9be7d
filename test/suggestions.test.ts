import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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
import { suggestionsPlugin } from '@forgekit/plugin-suggestions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitCli, withToken } from './support/git-cli.js';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';

interface Suggestion {
  id: number;
  applied: boolean;
  appliable: boolean;
  applicable: boolean;
}

/**
 * The suggestion flow: a developer pushes a branch with git and opens a merge request, a
 * reviewer comments on a diff line with a suggestion through @gitbeaker/rest, the developer
 * applies it, and git sees the new commit on the source branch.
 */
describe('suggestions through @gitbeaker/rest and git', () => {
  let server: ListeningServer;
  let admin: Api;
  let dev: UserWithToken;
  let reviewer: UserWithToken;
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
      suggestionsPlugin,
    ]);
    admin = clientFor(server, server.rootToken);
    work = await mkdtemp(join(tmpdir(), 'forgekit-suggestions-blackbox-'));
    const group = await admin.Groups.create('Suggest', 'suggest');
    project = (await admin.Projects.create({ name: 'App', path: 'app', namespaceId: group.id, initializeWithReadme: true })) as unknown as typeof project;
    dev = await createUserWithToken(admin, server, 'suggestdev');
    reviewer = await createUserWithToken(admin, server, 'suggestreviewer');
    await admin.ProjectMembers.add(project.id, AccessLevel.DEVELOPER, { userId: dev.id });
    await admin.ProjectMembers.add(project.id, AccessLevel.REPORTER, { userId: reviewer.id });
    clone = join(work, 'app');
    await gitIn(work, 'clone', '--quiet', withToken(project.http_url_to_repo, dev), clone);
    await gitIn(clone, 'checkout', '--quiet', '-b', 'feature');
    await writeFile(join(clone, 'greet.txt'), 'hello\nwrold\nbye\n');
    await gitIn(clone, 'add', 'greet.txt');
    await gitIn(clone, 'commit', '--quiet', '-m', 'Add the greeting');
    await gitIn(clone, 'push', '--quiet', 'origin', 'feature');
  });
  afterAll(async () => {
    await server?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('comments on a diff line with a suggestion, applies it and sees the commit with git', async () => {
    const mr = await dev.api.MergeRequests.create(project.id, 'feature', 'main', 'Add the greeting');
    const refs = mr.diff_refs as { base_sha: string; start_sha: string; head_sha: string };
    const position = { ...refs, position_type: 'text', old_path: 'greet.txt', new_path: 'greet.txt', new_line: 2 };
    const discussion = await reviewer.api.MergeRequestDiscussions.create(project.id, mr.iid, 'Typo:\n```suggestion:-0+0\nworld\n```', {
      position: position as never,
    });
    const [suggestion] = discussion.notes![0]!.suggestions as Suggestion[];
    expect(suggestion).toMatchObject({
      from_line: 2,
      to_line: 2,
      from_content: 'wrold\n',
      to_content: 'world\n',
      appliable: true,
      applicable: true,
      applied: false,
    });

    // A Reporter may comment but not push to the branch.
    expect(await failureOf(reviewer.api.Suggestions.edit(suggestion!.id))).toEqual({ status: 403, description: '403 Forbidden' });
    expect(await failureOf(dev.api.Suggestions.editBatch([suggestion!.id, 424242]))).toEqual({
      status: 404,
      description: 'Suggestions are not applicable as one or more suggestions were not found.',
    });

    const applied = (await dev.api.Suggestions.edit(suggestion!.id)) as unknown as Suggestion;
    expect(applied).toMatchObject({ id: suggestion!.id, applied: true, appliable: false, applicable: false });

    await gitIn(clone, 'pull', '--quiet', 'origin', 'feature');
    expect(await readFile(join(clone, 'greet.txt'), 'utf8')).toBe('hello\nworld\nbye\n');
    expect(await gitIn(clone, 'log', '-1', '--format=%an|%B')).toBe(
      'Suggestdev|Apply 1 suggestion(s) to 1 file(s)\n\nCo-authored-by: Suggestreviewer <suggestreviewer@example.com>',
    );
    expect(await gitIn(clone, 'rev-list', '--count', 'origin/main..origin/feature')).toBe('2');

    const thread = await dev.api.MergeRequestDiscussions.show(project.id, mr.iid, discussion.id);
    expect(thread.notes![0]).toMatchObject({ resolved: true, suggestions: [{ id: suggestion!.id, applied: true }] });
    expect(await failureOf(dev.api.Suggestions.edit(suggestion!.id))).toEqual({ status: 400, description: "Can't apply this suggestion." });
  });
});
