/**
 * Copies a bare repository to another storage and proves the copy: every ref and HEAD
 * must match the source, and `git fsck` must find every object the refs need. The copy
 * is built beside its final place and renamed into it, so a half-done copy is never
 * mistaken for a repository.
 */
import { cp, mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { git, gitText } from '../git/git-runner.js';

/** Every ref with its target, and what HEAD points to. */
export async function refsSnapshot(gitDir: string): Promise<string> {
  const [refs, head] = await Promise.all([
    gitText(gitDir, ['for-each-ref', '--format=%(objectname) %(refname)']),
    git(gitDir, ['symbolic-ref', '--quiet', 'HEAD'], { okCodes: [1, 128] }).then((result) => result.stdout.toString('utf8').trim()),
  ]);
  return `HEAD ${head}\n${refs}`;
}

export const stagingDir = (target: string, moveId: number) => `${target}.move-${moveId}`;

export async function copyRepository(source: string, target: string, moveId: number, expected: string): Promise<void> {
  const staging = stagingDir(target, moveId);
  await rm(staging, { recursive: true, force: true });
  try {
    await mkdir(dirname(target), { recursive: true });
    await cp(source, staging, { recursive: true, preserveTimestamps: true });
    const copied = await refsSnapshot(staging);
    if (copied !== expected) throw new Error('The copied repository does not have the same refs as the source');
    const fsck = await git(staging, ['fsck', '--connectivity-only', '--no-progress', '--no-dangling'], { okCodes: [1, 2, 4, 8] });
    if (fsck.code !== 0) throw new Error(`The copied repository failed verification: ${fsck.stderr.trim() || `git fsck exit ${fsck.code}`}`);
    // A leftover of an earlier attempt may sit at the destination; the live repository is the source.
    await rm(target, { recursive: true, force: true });
    await rename(staging, target);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}
