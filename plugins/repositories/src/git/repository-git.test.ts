import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { git, gitText } from './git-runner.js';
import { GitProcess } from './git-process.js';
import { changedPaths, readCommitWithStats } from './repo-reader.js';
import { createRepositoryGits, type RepositoryGits } from './repository-git.js';

const who = { name: 'Some One', email: 'some@example.com' };

describe("a repository's long-lived git processes", () => {
  let dir: string;
  let gitDir: string;
  let gits: RepositoryGits;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'forgekit-repository-git-'));
    gitDir = join(dir, 'repo.git');
    await git(null, ['init', '--quiet', '--bare', gitDir]);
    gits = createRepositoryGits();
  });
  afterAll(async () => {
    await gits.closeAll();
    rmSync(dir, { recursive: true, force: true });
  });

  const tempRefs = async () => (await gitText(gitDir, ['for-each-ref', '--format=%(refname)', 'refs/forgekit'])).split('\n').filter(Boolean);

  it('writes commits, reads the entries they touch, and shows them as git show does', async () => {
    const repo = gits.get(gitDir);
    const root = await repo.writeCommit({
      parent: null,
      commands: [
        { op: 'set', path: 'README.md', mode: '100644', content: Buffer.from('one\ntwo\n') },
        { op: 'set', path: 'odd "name"\nwith a newline', mode: '100755', content: Buffer.from('x') },
        { op: 'set', path: 'dir/a.txt', mode: '100644', content: Buffer.from('a\n') },
      ],
      message: 'First\n\nWith a body',
      author: { name: 'An Author', email: 'author@example.com' },
      committer: who,
    });
    expect(await repo.updateRefs([{ ref: 'refs/heads/main', before: null, after: root.commit }], [root.tempRef])).toBe(true);

    const entries = await repo.entriesAt(root.commit, ['README.md', 'dir', 'dir/a.txt', 'odd "name"\nwith a newline', 'missing', 'README.md/x']);
    expect(Object.fromEntries([...entries].map(([path, entry]) => [path, `${entry.mode} ${entry.type}`]))).toEqual({
      'README.md': '100644 blob',
      dir: '040000 tree',
      'dir/a.txt': '100644 blob',
      'odd "name"\nwith a newline': '100755 blob',
    });

    const second = await repo.writeCommit({
      parent: root.commit,
      commands: [
        { op: 'set', path: 'README.md', mode: '100644', content: Buffer.from('one\nthree\nfour\n') },
        { op: 'delete', path: 'dir/a.txt' },
        { op: 'set', path: 'moved/a.txt', mode: '100644', sha: entries.get('dir/a.txt')!.sha },
      ],
      message: 'Second',
      author: who,
      committer: who,
    });
    expect(await repo.updateRefs([{ ref: 'refs/heads/main', before: root.commit, after: second.commit }], [second.tempRef])).toBe(true);

    for (const sha of [root.commit, second.commit]) {
      expect(await repo.showCommit(sha)).toEqual(await readCommitWithStats(gitDir, sha));
      expect(await repo.changedPaths(sha)).toEqual(await changedPaths(gitDir, sha));
    }
    expect((await repo.showCommit(second.commit))!.stats).toEqual({ additions: 2, deletions: 1, total: 3 });
    expect(await gitText(gitDir, ['rev-parse', 'main^'])).toBe(root.commit);
    // Each transaction dropped the commit's temporary ref.
    expect(await tempRefs()).toEqual([]);
  });

  it('shows a merge against its first parent, as git show does', async () => {
    const repo = gits.get(gitDir);
    const [head, parent] = [await gitText(gitDir, ['rev-parse', 'main']), await gitText(gitDir, ['rev-parse', 'main^'])];
    const side = await repo.writeCommit({
      parent,
      commands: [{ op: 'set', path: 'side.txt', mode: '100644', content: Buffer.from('s\n') }],
      message: 'Side',
      author: who,
      committer: who,
    });
    const merge = await gitText(gitDir, ['commit-tree', `${side.commit}^{tree}`, '-p', head, '-p', side.commit, '-m', 'Merge side']);
    expect(await repo.showCommit(merge)).toEqual(await readCommitWithStats(gitDir, merge));
    expect((await repo.showCommit(merge))!.commit.parentIds).toEqual([head, side.commit]);
  });

  it('answers false for a transaction that lost its compare-and-swap, and takes the next one', async () => {
    const repo = gits.get(gitDir);
    const head = await gitText(gitDir, ['rev-parse', 'main']);
    const parent = await gitText(gitDir, ['rev-parse', 'main^']);
    const [lost, won] = await Promise.all([
      repo.updateRefs([{ ref: 'refs/heads/main', before: parent, after: parent }]),
      repo.updateRefs([{ ref: 'refs/heads/other', before: null, after: head }]),
    ]);
    expect([lost, won]).toEqual([false, true]);
    expect(await gitText(gitDir, ['rev-parse', 'main'])).toBe(head);
    expect(await repo.updateRefs([{ ref: 'refs/heads/other', before: head, after: null }])).toBe(true);
    expect(await gitText(gitDir, ['for-each-ref', '--format=%(refname)', 'refs/heads'])).toBe('refs/heads/main');
  });

  it('keeps each commit in a pack of its own, marked kept until its packs are released', async () => {
    const repo = gits.get(gitDir);
    const packFiles = (suffix: string) => readdirSync(join(gitDir, 'objects', 'pack')).filter((name) => name.endsWith(suffix));
    const looseObjects = async () => Number(/^count: (\d+)$/m.exec(await gitText(gitDir, ['count-objects', '-v']))![1]);
    const head = await gitText(gitDir, ['rev-parse', 'main']);
    const loose = await looseObjects();
    const packs = packFiles('.pack').length;
    const written = await repo.writeCommit({
      parent: head,
      commands: [{ op: 'set', path: 'packed/one.txt', mode: '100644', content: Buffer.from('one\n') }],
      message: 'Packed',
      author: who,
      committer: who,
    });
    expect(await repo.updateRefs([{ ref: 'refs/heads/main', before: head, after: written.commit }], [written.tempRef])).toBe(true);
    // No `git unpack-objects` loosened the commit's objects: they sit in one new pack, kept from repacks.
    expect(await looseObjects()).toBe(loose);
    expect(packFiles('.pack')).toHaveLength(packs + 1);
    expect(packFiles('.keep').length).toBeGreaterThan(0);
    await repo.releasePacks();
    expect(packFiles('.keep')).toEqual([]);
    expect(await gitText(gitDir, ['cat-file', '-p', 'main:packed/one.txt'])).toBe('one');
    // The next commit starts another fast-import.
    const next = await repo.writeCommit({
      parent: written.commit,
      commands: [{ op: 'delete', path: 'packed/one.txt' }],
      message: 'Unpacked',
      author: who,
      committer: who,
    });
    expect(await repo.updateRefs([{ ref: 'refs/heads/main', before: written.commit, after: next.commit }], [next.tempRef])).toBe(true);
    expect(await gitText(gitDir, ['rev-parse', 'main^'])).toBe(written.commit);
  });

  it('answers a commit shown again from its last answer, each caller getting its own copy', async () => {
    const repo = gits.get(gitDir);
    const head = await gitText(gitDir, ['rev-parse', 'main']);
    const requests = vi.spyOn(GitProcess.prototype, 'request');
    try {
      const first = await repo.showCommit(head);
      expect(requests).toHaveBeenCalledTimes(1);
      const again = await repo.showCommit(head);
      expect(requests).toHaveBeenCalledTimes(1);
      expect(again).toEqual(first);
      expect(again).not.toBe(first);
      expect(again).toEqual(await readCommitWithStats(gitDir, head));
      // An unknown commit is asked each time: it may yet be written.
      expect(await repo.showCommit('1'.repeat(40))).toBeNull();
      expect(await repo.showCommit('1'.repeat(40))).toBeNull();
      expect(requests).toHaveBeenCalledTimes(3);
    } finally {
      requests.mockRestore();
    }
  });

  it('leaves no temporary ref behind when its processes end', async () => {
    const repo = gits.get(gitDir);
    const head = await gitText(gitDir, ['rev-parse', 'main']);
    // A commit whose branch never moves keeps its temporary ref until fast-import ends.
    await repo.writeCommit({ parent: head, commands: [{ op: 'delete', path: 'README.md' }], message: 'Dropped', author: who, committer: who });
    expect(await tempRefs()).toHaveLength(1);
    await gits.close(gitDir);
    expect(await tempRefs()).toEqual([]);
    // A caller still holding the closed processes is answered by ones that end straight after.
    expect(await repo.showCommit(head)).toEqual(await readCommitWithStats(gitDir, head));
    // The next use starts new processes.
    const again = gits.get(gitDir);
    expect((await again.entriesAt(head, ['README.md'])).get('README.md')?.type).toBe('blob');
    expect(await again.updateRefs([{ ref: 'refs/heads/main', before: head, after: head }])).toBe(true);
  });
});
