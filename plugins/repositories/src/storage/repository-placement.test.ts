import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { repositoriesServiceRef, repositoryPlacementRef, type RepositoryPlacement, type RepositoryService } from '../contracts.js';
import { git } from '../git/git-runner.js';
import { createRepoTestApp } from '../testing/repo-test-app.js';

const who = { id: 1, username: 'someone', name: 'Some One', email: 'some@example.com' };

describe('repository placement (what storage moves use)', () => {
  let app: TestApp;
  let placement: RepositoryPlacement;
  let repos: RepositoryService;

  beforeAll(async () => {
    app = await createRepoTestApp({ config: { plugins: { repositories: { storages: { second: 'second-storage' } } } } });
    placement = app.kernel.resolve(repositoryPlacementRef);
    repos = app.kernel.resolve(repositoriesServiceRef);
  });
  afterAll(() => app.close());

  async function repositoryWithCommit(containerId: number) {
    const repository = await placement.ensure({ kind: 'snippet', containerId }, { storage: 'default' });
    const write = {
      branch: 'main',
      message: 'One',
      author: who,
      committer: who,
      actions: [{ action: 'create' as const, filePath: 'a.txt', content: Buffer.from('a') }],
    };
    await repos.commitFiles(repository, write, who);
    return repository;
  }

  const refsOf = async (gitDir: string) => (await git(gitDir, ['for-each-ref', '--format=%(objectname) %(refname)'])).stdout.toString();

  it('names the configured storages', () => {
    expect([...placement.storageNames].sort()).toEqual(['default', 'second']);
    expect(placement.hasStorage('second')).toBe(true);
    expect(placement.hasStorage('nowhere')).toBe(false);
  });

  it('copies and verifies a repository, switches it, and removes the source', async () => {
    const repository = await repositoryWithCommit(101);
    expect(placement.isOn(repository, 'default')).toBe(true);
    expect(placement.isOn(repository, 'second')).toBe(false);
    const snapshot = await placement.copyTo(repository, 'second', 1);
    const copy = repository.gitDir.replace(/\/repositories\//, '/second-storage/');
    expect(await refsOf(copy)).toBe(await refsOf(repository.gitDir));
    await placement.relocate([repository.id], 'second');
    expect(await placement.find({ kind: 'snippet', containerId: 101 })).toMatchObject({ storage: 'second', gitDir: copy });
    await placement.removeSource(repository, snapshot);
    expect(existsSync(repository.gitDir)).toBe(false);
  });

  it('keeps a source whose refs changed after the copy', async () => {
    const repository = await repositoryWithCommit(102);
    const snapshot = await placement.copyTo(repository, 'second', 2);
    await git(repository.gitDir, ['update-ref', 'refs/heads/late', 'refs/heads/main']);
    await expect(placement.removeSource(repository, snapshot)).rejects.toThrow('The source repository changed during the move');
    expect(existsSync(repository.gitDir)).toBe(true);
  });

  it('discards a finished copy, and fails the copy of a broken repository without leaving staging behind', async () => {
    const repository = await repositoryWithCommit(103);
    await expect(placement.copyTo(repository, 'second', 3)).resolves.toBeTypeOf('string');
    await placement.discardCopy(repository, 'second');
    expect(existsSync(repository.gitDir.replace(/\/repositories\//, '/second-storage/'))).toBe(false);
    // A corrupt source fails verification; the staging directory is gone.
    await writeFile(join(repository.gitDir, 'refs', 'heads', 'broken'), '0123456789012345678901234567890123456789\n');
    await expect(placement.copyTo(repository, 'second', 4)).rejects.toThrow();
    expect(existsSync(`${repository.gitDir.replace(/\/repositories\//, '/second-storage/')}.move-4`)).toBe(false);
  });

  it('never removes a repository’s own directory as a discarded copy', async () => {
    const repository = await repositoryWithCommit(104);
    await placement.discardCopy(repository, 'default');
    expect(existsSync(repository.gitDir)).toBe(true);
  });
});
