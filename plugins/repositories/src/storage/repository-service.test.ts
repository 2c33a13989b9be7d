import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { git } from '../git/git-runner.js';
import { HOUSEKEEPING_JOB } from '../projects/housekeeping.js';
import { repositoriesServiceRef } from '../contracts.js';
import { createRepoTestApp } from '../testing/repo-test-app.js';
import type { RepositoryService } from './repository-service.js';
import { diskPathFor } from './storages.js';

const who = { id: 1, username: 'someone', name: 'Some One', email: 'some@example.com' };

describe('the repository service other plugins use', () => {
  let app: TestApp;
  let repos: RepositoryService;

  beforeAll(async () => {
    app = await createRepoTestApp();
    repos = app.kernel.resolve(repositoriesServiceRef);
  });
  afterAll(() => app.close());

  const commit = (repository: Awaited<ReturnType<RepositoryService['ensure']>>, path: string, content: string, extra: { expectedHead?: string | null } = {}) =>
    repos.commitFiles(
      repository,
      {
        branch: 'main',
        message: `Write ${path}`,
        author: who,
        committer: who,
        actions: [{ action: 'create', filePath: path, content: Buffer.from(content) }],
        ...extra,
      },
      who,
    );

  it('creates wiki and snippet repositories with their own layouts, and removes them', async () => {
    const wiki = await repos.ensure({ kind: 'wiki', containerId: app.project.id });
    expect(wiki.diskPath).toMatch(/^@hashed\/.+\.wiki\.git$/);
    const snippet = await repos.ensure({ kind: 'snippet', containerId: 5 });
    expect(snippet.diskPath).toMatch(/^@snippets\/.+\.git$/);
    expect((await repos.ensure({ kind: 'snippet', containerId: 5 })).id).toBe(snippet.id);
    await repos.remove({ kind: 'snippet', containerId: 5 });
    expect(await repos.find({ kind: 'snippet', containerId: 5 })).toBeNull();
  });

  it('tells whether a repository on disk is empty, seeing one another process creates at once', async () => {
    const path = diskPathFor({ kind: 'snippet', containerId: 991 });
    expect(repos.isEmptyOnDisk(path, 'default')).toBe(true);
    // Another process creates the repository with a branch: no answer about the missing one was kept.
    const gitDir = repos.gitDirOn('default', path);
    await git(null, ['init', '--bare', '--quiet', gitDir]);
    const identity = { GIT_AUTHOR_NAME: 'A', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: 'A', GIT_COMMITTER_EMAIL: 'a@example.com' };
    const emptyTree = (await git(gitDir, ['hash-object', '-t', 'tree', '-w', '/dev/null'])).stdout.toString().trim();
    const sha = (await git(gitDir, ['commit-tree', emptyTree, '-m', 'First'], { env: identity })).stdout.toString().trim();
    await git(gitDir, ['update-ref', 'refs/heads/main', sha]);
    expect(repos.isEmptyOnDisk(path, 'default')).toBe(false);
    expect(repos.isEmptyOnDisk(path, 'default')).toBe(false);

    // This process's own first commit shows at once on a repository it found empty.
    const other = await repos.ensure({ kind: 'snippet', containerId: 992 });
    expect(repos.isEmptyOnDisk(other.diskPath, 'default')).toBe(true);
    expect(repos.isEmptyOnDisk(other.diskPath, 'default')).toBe(true);
    await commit(other, 'a.txt', 'a');
    expect(repos.isEmptyOnDisk(other.diskPath, 'default')).toBe(false);
  });

  it('creates a bare repository git reads as its own, on the default branch asked for', async () => {
    const repository = await repos.ensure({ kind: 'snippet', containerId: 77 }, { defaultBranch: 'trunk' });
    const gitText = async (...args: string[]) => (await git(repository.gitDir, args)).stdout.toString().trim();
    expect(await gitText('rev-parse', '--is-bare-repository')).toBe('true');
    expect(await gitText('symbolic-ref', 'HEAD')).toBe('refs/heads/trunk');
    expect(await gitText('config', '--get', 'core.repositoryformatversion')).toBe('0');
    expect(await repos.headBranch(repository)).toBe('trunk');
    const { commit: sha } = await repos.commitFiles(
      repository,
      { branch: 'trunk', message: 'First', author: who, committer: who, actions: [{ action: 'create', filePath: 'a.txt', content: Buffer.from('a') }] },
      who,
    );
    expect(await repos.branchHead(repository, 'trunk')).toBe(sha);
    await git(repository.gitDir, ['fsck', '--strict']);
    await repos.remove({ kind: 'snippet', containerId: 77 });
  });

  it('reads blobs and trees at a ref', async () => {
    const wiki = await repos.ensure({ kind: 'wiki', containerId: app.project.id });
    const { commit: sha } = await commit(wiki, 'pages/home.md', '# Home');
    expect((await repos.readBlob(wiki, 'main', 'pages/home.md'))!.data.toString()).toBe('# Home');
    expect(await repos.readBlob(wiki, sha, 'pages/missing.md')).toBeNull();
    expect((await repos.readTree(wiki, 'main', 'pages', false))!.map((entry) => entry.name)).toEqual(['home.md']);
  });

  it('commits with compare-and-swap: a stale expected head fails, a concurrent writer loses cleanly', async () => {
    const wiki = (await repos.find({ kind: 'wiki', containerId: app.project.id }))!;
    const head = (await repos.branchHead(wiki, 'main'))!;
    await commit(wiki, 'a.md', 'a', { expectedHead: head });
    await expect(commit(wiki, 'b.md', 'b', { expectedHead: head })).rejects.toThrow('Could not update refs/heads/main. Please refresh and try again.');
    await expect(commit(wiki, 'c.md', 'c', { expectedHead: null })).rejects.toThrow('Could not update refs/heads/main');

    const results = await Promise.allSettled(Array.from({ length: 4 }, (_, i) => commit(wiki, `race-${i}.md`, String(i))));
    const won = results.filter((result) => result.status === 'fulfilled').length;
    expect(won).toBeGreaterThanOrEqual(1);
    for (const result of results) if (result.status === 'rejected') expect(String(result.reason)).toContain('Could not update refs/heads/main');
    const tree = (await repos.readTree(wiki, 'main', '', false))!.map((entry) => entry.name);
    expect(tree.filter((name) => name.startsWith('race-'))).toHaveLength(won);
    const refs = (await git(wiki.gitDir, ['for-each-ref', '--format=%(refname)'])).stdout.toString();
    expect(refs).not.toContain('refs/forgekit/');
  });

  it('repacks a repository after many writes, keeping every commit', async () => {
    const repository = await repos.ensure({ kind: 'snippet', containerId: 9 });
    for (let i = 0; i < 30; i++) await commit(repository, `f-${i}.txt`, String(i));
    await app.kernel.jobs.run(HOUSEKEEPING_JOB, { repositoryId: repository.id });
    const packs = readdirSync(join(repository.gitDir, 'objects', 'pack')).filter((name) => name.endsWith('.pack'));
    expect(packs.length).toBeLessThanOrEqual(2);
    expect((await git(repository.gitDir, ['fsck', '--no-progress'])).code).toBe(0);
    expect(Number((await git(repository.gitDir, ['rev-list', '--count', 'main'])).stdout.toString())).toBe(30);
  });
});
