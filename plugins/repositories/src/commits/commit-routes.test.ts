import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { commitFiles, createRepoTestApp } from '../testing/repo-test-app.js';

describe('commits', () => {
  let app: TestApp;
  let projectId: number;
  const url = () => `/api/v4/projects/${projectId}/repository/commits`;

  beforeAll(async () => {
    app = await createRepoTestApp();
    projectId = app.project.id;
  });
  afterAll(() => app.close());

  describe('POST /projects/:id/repository/commits', () => {
    /** Commits each file to `main` in its own request, all sent at once. */
    const createAtOnce = (projectId: number, files: string[]) =>
      Promise.all(
        files.map((file) =>
          app.post(
            `/api/v4/projects/${projectId}/repository/commits`,
            { branch: 'main', commit_message: `Add ${file}`, actions: [{ action: 'create', file_path: file, content: file }] },
            { token: 'owner' },
          ),
        ),
      );

    it('lands concurrent commits to one branch one after another, losing none', async () => {
      const own = await app.post('/api/v4/projects', { name: 'Concurrent', namespace_id: app.group.id, initialize_with_readme: true }, { token: 'owner' });
      const files = ['a', 'b', 'c', 'd', 'e'].map((name) => `concurrent/${name}.txt`);
      const results = await createAtOnce(own.body.id, files);
      expect(results.map((res) => res.status)).toEqual([201, 201, 201, 201, 201]);
      const tree = await app.get(`/api/v4/projects/${own.body.id}/repository/tree`, { token: 'owner', query: { path: 'concurrent', per_page: 100 } });
      expect(tree.body.map((entry: { path: string }) => entry.path).sort()).toEqual(files);
    });

    it('lands commits that arrive together in a line, refusing one alone with its own error', async () => {
      const own = await app.post('/api/v4/projects', { name: 'Together', namespace_id: app.group.id, initialize_with_readme: true }, { token: 'owner' });
      const files = ['a.txt', 'b.txt', 'README.md', 'c.txt', 'd.txt'];
      const results = await createAtOnce(own.body.id, files);
      expect(results.map((res) => res.status)).toEqual([201, 201, 400, 201, 201]);
      expect(results[2]!.body.message).toBe('A file with this name already exists');
      const landed: { id: string; parent_ids: string[]; stats: unknown }[] = results.filter((res) => res.status === 201).map((res) => res.body);
      // The branch's last four commits are the answered ones, in a line, each answered with the parent it has.
      const log = await app.get(`/api/v4/projects/${own.body.id}/repository/commits`, { token: 'owner', query: { ref_name: 'main', per_page: 5 } });
      const line: { id: string; parent_ids: string[] }[] = log.body;
      expect(
        line
          .slice(0, 4)
          .map((commit) => commit.id)
          .sort(),
      ).toEqual(landed.map((commit) => commit.id).sort());
      for (let i = 0; i < 4; i++) expect(line[i]!.parent_ids).toEqual([line[i + 1]!.id]);
      for (const commit of landed) expect(commit.parent_ids).toEqual(line.find((entry) => entry.id === commit.id)!.parent_ids);
      const stats = landed.map((commit) => commit.stats);
      expect(stats).toEqual(landed.map(() => ({ additions: 1, deletions: 0, total: 1 })));
    });

    it('creates the first commit of an empty repository and makes its branch the default', async () => {
      const res = await app.post(
        url(),
        {
          branch: 'main',
          commit_message: 'Initial commit\n\nWith a body.',
          actions: [
            { action: 'create', file_path: 'README.md', content: '# Hello\n' },
            {
              action: 'create',
              file_path: 'bin/run.sh',
              content: Buffer.from('#!/bin/sh\necho hi\n').toString('base64'),
              encoding: 'base64',
              execute_filemode: true,
            },
          ],
          author_name: 'Ada Author',
          author_email: 'ada@example.com',
        },
        { token: 'maintainer' },
      );
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        title: 'Initial commit',
        message: 'Initial commit\n\nWith a body.',
        parent_ids: [],
        author_name: 'Ada Author',
        author_email: 'ada@example.com',
        committer_name: app.users.maintainer.name,
        committer_email: app.users.maintainer.email,
        stats: { additions: 3, deletions: 0, total: 3 },
        status: null,
        project_id: projectId,
        last_pipeline: null,
        trailers: {},
        web_url: `http://localhost/test-group/test-project/-/commit/${res.body.id}`,
      });
      expect(res.body.id).toMatch(/^[0-9a-f]{40}$/);
      expect(res.body.short_id).toBe(res.body.id.slice(0, 8));
      expect(res.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000\+00:00$/);

      const project = await app.get(`/api/v4/projects/${projectId}`, { token: 'maintainer' });
      expect(project.body).toMatchObject({ default_branch: 'main', empty_repo: false });

      const script = await app.get(`/api/v4/projects/${projectId}/repository/files/bin%2Frun.sh`, { token: 'maintainer', query: { ref: 'main' } });
      expect(script.body.execute_filemode).toBe(true);
      expect(Buffer.from(script.body.content, 'base64').toString()).toBe('#!/bin/sh\necho hi\n');
    });

    it('updates, moves, deletes and changes modes in one commit on top of the branch', async () => {
      await commitFiles(app, projectId, { 'docs/a.md': 'a\n', 'docs/b.md': 'b\n', 'keep.txt': 'keep\n' });
      const head = (await app.get(`${url()}/main`, { token: 'maintainer' })).body.id;
      const res = await app.post(
        url(),
        {
          branch: 'main',
          commit_message: 'Rework',
          actions: [
            { action: 'update', file_path: 'README.md', content: '# Changed\n' },
            { action: 'move', previous_path: 'docs/a.md', file_path: 'docs/moved.md' },
            { action: 'delete', file_path: 'docs/b.md' },
            { action: 'chmod', file_path: 'keep.txt', execute_filemode: true },
          ],
        },
        { token: 'maintainer' },
      );
      expect(res.status).toBe(201);
      expect(res.body.parent_ids).toEqual([head]);
      const tree = await app.get(`/api/v4/projects/${projectId}/repository/tree`, { token: 'maintainer', query: { recursive: 'true' } });
      expect(tree.body.map((entry: { path: string }) => entry.path).sort()).toEqual(['README.md', 'bin', 'bin/run.sh', 'docs', 'docs/moved.md', 'keep.txt']);
      const moved = await app.get(`/api/v4/projects/${projectId}/repository/files/docs%2Fmoved.md/raw`, { token: 'maintainer' });
      expect(moved.text).toBe('a\n');
      const keep = await app.get(`/api/v4/projects/${projectId}/repository/files/keep.txt`, { token: 'maintainer', query: { ref: 'main' } });
      expect(keep.body.execute_filemode).toBe(true);
    });

    it('creates a new branch from start_branch', async () => {
      const main = (await app.get(`${url()}/main`, { token: 'maintainer' })).body.id;
      const res = await app.post(
        url(),
        { branch: 'feature/one', start_branch: 'main', commit_message: 'Feature', actions: [{ action: 'create', file_path: 'feature.txt', content: 'f' }] },
        { token: 'maintainer' },
      );
      expect(res.status).toBe(201);
      expect(res.body.parent_ids).toEqual([main]);
      const branch = await app.get(`/api/v4/projects/${projectId}/repository/branches/feature%2Fone`, { token: 'maintainer' });
      expect(branch.body.commit.id).toBe(res.body.id);
    });

    it('overwrites an existing branch from start_sha with force', async () => {
      const main = (await app.get(`${url()}/main`, { token: 'maintainer' })).body.id;
      const res = await app.post(
        url(),
        {
          branch: 'feature/one',
          start_sha: main,
          force: true,
          commit_message: 'Forced',
          actions: [{ action: 'create', file_path: 'forced.txt', content: 'x' }],
        },
        { token: 'maintainer' },
      );
      expect(res.status).toBe(201);
      expect(res.body.parent_ids).toEqual([main]);
    });

    it.each([
      [{ action: 'create', file_path: 'README.md', content: 'x' }, 'A file with this name already exists'],
      [{ action: 'create', file_path: 'docs', content: 'x' }, 'A directory with this name already exists'],
      [{ action: 'update', file_path: 'missing.md', content: 'x' }, "A file with this name doesn't exist"],
      [{ action: 'delete', file_path: 'missing.md' }, "A file with this name doesn't exist"],
      [{ action: 'move', previous_path: 'missing.md', file_path: 'other.md' }, "A file with this name doesn't exist"],
      [{ action: 'move', previous_path: 'keep.txt', file_path: 'README.md' }, 'A file with this name already exists'],
      [{ action: 'create', file_path: '../escape.md', content: 'x' }, 'Path cannot include directory traversal'],
      [
        { action: 'update', file_path: 'README.md', content: 'x', last_commit_id: '1234567890123456789012345678901234567890' },
        'The file has changed since you started editing it: README.md',
      ],
    ])('refuses %j with GitLab’s 400', async (action, message) => {
      const res = await app.post(url(), { branch: 'main', commit_message: 'Bad', actions: [action] }, { token: 'maintainer' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message });
    });

    it('refuses a start branch that does not exist and a target branch that already does', async () => {
      const missing = await app.post(url(), { branch: 'new', start_branch: 'nope', commit_message: 'm', actions: [] }, { token: 'maintainer' });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ message: 'You can only create or edit files when you are on a branch' });
      const onMissing = await app.post(url(), { branch: 'nope', commit_message: 'm', actions: [] }, { token: 'maintainer' });
      expect(onMissing.body).toEqual({ message: 'You can only create or edit files when you are on a branch' });
      const exists = await app.post(url(), { branch: 'feature/one', start_branch: 'main', commit_message: 'm', actions: [] }, { token: 'maintainer' });
      expect(exists.status).toBe(400);
      expect(exists.body).toEqual({ message: "A branch called 'feature/one' already exists. Switch to that branch in order to make changes" });
      const badName = await app.post(url(), { branch: 'bad..name', start_branch: 'main', commit_message: 'm', actions: [] }, { token: 'maintainer' });
      expect(badName.body).toEqual({ message: "Something went wrong when we tried to create 'bad..name' for you: Branch name is invalid" });
      const badSha = await app.post(url(), { branch: 'x', start_sha: 'zzz', commit_message: 'm', actions: [] }, { token: 'maintainer' });
      expect(badSha.body).toEqual({ message: "Invalid start_sha 'zzz'" });
      const unknownSha = await app.post(url(), { branch: 'x', start_sha: 'a'.repeat(40), commit_message: 'm', actions: [] }, { token: 'maintainer' });
      expect(unknownSha.body).toEqual({ message: `Cannot find start_sha '${'a'.repeat(40)}'` });
    });

    it('validates params the way Grape does', async () => {
      const res = await app.post(
        url(),
        {
          branch: '',
          actions: [
            { file_path: 'a' },
            { action: 'update', file_path: 'b' },
            { action: 'chmod', file_path: 'c' },
            { action: 'zip', file_path: 'd' },
            { action: 'move', file_path: 'e' },
          ],
        },
        { token: 'maintainer' },
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error:
          'branch is empty, commit_message is missing, actions[0][action] is missing, actions[1][content] is missing, actions[2][execute_filemode] is missing, actions[3][action] does not have a valid value, actions[4][previous_path] is missing',
      });
      const exclusive = await app.post(
        url(),
        { branch: 'b', commit_message: 'm', actions: [], start_branch: 'main', start_sha: 'abc' },
        { token: 'maintainer' },
      );
      expect(exclusive.body).toEqual({ error: 'start_branch, start_sha are mutually exclusive' });
    });

    it('needs Developer: 403 for a reporter, 404 for a non-member, 401 anonymous', async () => {
      const body = { branch: 'main', commit_message: 'm', actions: [{ action: 'create', file_path: 'r.txt', content: 'r' }] };
      expect(await app.post(url(), body, { token: 'reporter' })).toMatchObject({
        status: 403,
        body: { message: '403 Forbidden - You are not allowed to push into this branch' },
      });
      expect(await app.post(url(), body, { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
      expect(await app.post(url(), body)).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    });

    it('refuses a start project outside the fork network', async () => {
      const res = await app.post(url(), { branch: 'x', commit_message: 'm', actions: [], start_project: projectId }, { token: 'maintainer' });
      expect(res).toMatchObject({
        status: 403,
        body: { message: '403 Forbidden - Project is not included in the fork network for Test Group / Test Project' },
      });
    });
  });

  describe('GET /projects/:id/repository/commits', () => {
    it('lists the default branch newest first with pagination headers', async () => {
      const res = await app.get(url(), { token: 'reporter', query: { per_page: 2 } });
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(2);
      expect(res.body[0].title).toBe('Rework');
      expect(res.headers.get('x-total')).toBe('3');
      expect(res.headers.get('x-next-page')).toBe('2');
      const second = await app.get(url(), { token: 'reporter', query: { per_page: 2, page: 2 } });
      expect(second.body.map((commit: { title: string }) => commit.title)).toEqual(['Initial commit']);
    });

    it('filters by ref, path, author and dates, and adds stats on request', async () => {
      const feature = await app.get(url(), { token: 'reporter', query: { ref_name: 'feature/one' } });
      expect(feature.body[0].title).toBe('Forced');
      const byPath = await app.get(url(), { token: 'reporter', query: { path: 'keep.txt' } });
      expect(byPath.body.map((commit: { title: string }) => commit.title)).toEqual(['Rework', 'Change files']);
      const byAuthor = await app.get(url(), { token: 'reporter', query: { author: 'ada' } });
      expect(byAuthor.body.map((commit: { title: string }) => commit.title)).toEqual(['Initial commit']);
      const future = await app.get(url(), { token: 'reporter', query: { since: '2999-01-01T00:00:00Z' } });
      expect(future.body).toEqual([]);
      const past = await app.get(url(), { token: 'reporter', query: { until: '2000-01-01T00:00:00Z' } });
      expect(past.body).toEqual([]);
      const recent = await app.get(url(), { token: 'reporter', query: { since: '2000-01-01T00:00:00Z' } });
      expect(recent.body).toHaveLength(3);
      const stats = await app.get(url(), { token: 'reporter', query: { with_stats: 'true', per_page: 1 } });
      expect(stats.body[0].stats).toEqual({ additions: 1, deletions: 2, total: 3 });
      const all = await app.get(url(), { token: 'reporter', query: { all: 'true' } });
      expect(all.body.map((commit: { title: string }) => commit.title).sort()).toEqual(['Change files', 'Forced', 'Initial commit', 'Rework']);
      const unknown = await app.get(url(), { token: 'reporter', query: { ref_name: 'no-such-ref' } });
      expect(unknown.body).toEqual([]);
    });

    it('is empty for a project without commits and hidden from non-members', async () => {
      const created = await app.post('/api/v4/projects', { name: 'Empty', namespace_id: app.group.id }, { token: 'owner' });
      const empty = await app.get(`/api/v4/projects/${created.body.id}/repository/commits`, { token: 'owner' });
      expect(empty).toMatchObject({ status: 200, body: [] });
      expect(await app.get(url(), { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
      expect(await app.get(url(), { token: 'guest' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    });
  });

  describe('GET /projects/:id/repository/commits/:sha', () => {
    it('shows a commit by sha, branch or tag name, with stats unless turned off', async () => {
      const byBranch = await app.get(`${url()}/main`, { token: 'reporter' });
      expect(byBranch.status).toBe(200);
      expect(byBranch.body.stats).toEqual({ additions: 1, deletions: 2, total: 3 });
      const bySha = await app.get(`${url()}/${byBranch.body.id}`, { token: 'reporter', query: { stats: 'false' } });
      expect(bySha.body.id).toBe(byBranch.body.id);
      expect(bySha.body).not.toHaveProperty('stats');
    });

    it('answers 404 Commit Not Found for an unknown ref', async () => {
      expect(await app.get(`${url()}/deadbeef`, { token: 'reporter' })).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
    });

    it('lists the diff of a commit', async () => {
      const res = await app.get(`${url()}/main/diff`, { token: 'reporter' });
      expect(res.status).toBe(200);
      const readme = res.body.find((diff: { new_path: string }) => diff.new_path === 'README.md');
      expect(readme).toMatchObject({ old_path: 'README.md', new_file: false, deleted_file: false, renamed_file: false, a_mode: '100644', b_mode: '100644' });
      expect(readme.diff).toBe('@@ -1 +1 @@\n-# Hello\n+# Changed\n');
      const removed = res.body.find((diff: { old_path: string }) => diff.old_path === 'docs/b.md');
      expect(removed).toMatchObject({ deleted_file: true, b_mode: '0' });
    });
  });
});
