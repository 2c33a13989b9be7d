import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { branchHeadOnDisk, branchHeadsOnDisk } from './refs-on-disk.js';

const run = promisify(execFile);

describe('branch heads read from disk', () => {
  let dir: string;
  let gitDir: string;
  const git = (...args: string[]) =>
    run('git', args, {
      cwd: join(dir, 'work'),
      env: {
        ...process.env,
        GIT_CONFIG_NOSYSTEM: '1',
        HOME: dir,
        GIT_AUTHOR_NAME: 'A',
        GIT_AUTHOR_EMAIL: 'a@example.com',
        GIT_COMMITTER_NAME: 'A',
        GIT_COMMITTER_EMAIL: 'a@example.com',
      },
    });
  const sha = async (revision: string) => (await git('rev-parse', revision)).stdout.trim();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'forgekit-heads-'));
    await run('git', ['init', '--quiet', '--initial-branch=main', join(dir, 'work')]);
    gitDir = join(dir, 'work', '.git');
    await git('commit', '--allow-empty', '-m', 'first');
    await git('branch', 'packed/one');
    await git('pack-refs', '--all');
    await git('commit', '--allow-empty', '-m', 'second');
    await git('branch', 'loose');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('answers for several branches what each read alone answers: loose, packed, missing and invalid', async () => {
    const branches = ['main', 'packed/one', 'loose', 'missing', '../HEAD', 'main'];
    const heads = await branchHeadsOnDisk(gitDir, branches);
    expect([...heads.keys()]).toEqual(['main', 'packed/one', 'loose', 'missing', '../HEAD']);
    for (const branch of branches) expect(heads.get(branch)).toBe(await branchHeadOnDisk(gitDir, branch));
    expect(heads.get('main')).toBe(await sha('main'));
    expect(heads.get('packed/one')).toBe(await sha('main~1'));
    expect(heads.get('missing')).toBeNull();
    expect(heads.get('../HEAD')).toBeNull();
  });

  it('answers moved, new, deleted and packed branches on the next read, once earlier reads are kept', async () => {
    // A clock well ahead, so that every change so far counts as settled and reads are kept.
    const later = () => Date.now() + 60_000;
    const read = async (...branches: string[]) => Object.fromEntries(await branchHeadsOnDisk(gitDir, branches, later));
    const fresh = async (...branches: string[]) => {
      const heads: Record<string, string | null> = {};
      for (const branch of branches) heads[branch] = await branchHeadOnDisk(gitDir, branch);
      return heads;
    };
    const all = ['main', 'loose', 'packed/one', 'nested/new', 'gone'];
    await git('branch', 'gone');
    expect(await read(...all)).toEqual(await fresh(...all));
    expect(await read(...all)).toEqual(await fresh(...all));

    await git('update-ref', 'refs/heads/loose', 'main~1');
    await git('branch', 'nested/new', 'main~1');
    await git('branch', '-D', 'gone');
    expect(await read(...all)).toEqual(await fresh(...all));
    expect((await read('loose')).loose).toBe(await sha('main~1'));
    expect((await read('nested/new'))['nested/new']).toBe(await sha('main~1'));
    expect((await read('gone')).gone).toBeNull();

    await git('update-ref', 'refs/heads/packed/one', 'main');
    expect((await read('packed/one'))['packed/one']).toBe(await sha('main'));
    await git('pack-refs', '--all');
    await git('update-ref', 'refs/heads/loose', 'main');
    expect(await read(...all)).toEqual(await fresh(...all));
    expect((await read('loose')).loose).toBe(await sha('main'));
  });
});
