/**
 * Ref facts read straight from a bare repository's files (git's default "files" ref
 * backend), for checks too frequent to spawn git for. `HEAD` and a loose ref are a few bytes
 * and read synchronously: a promise-based read costs about ten times the CPU (file handle,
 * stat, read and close, each a round trip through the thread pool), and these reads run on
 * every request that names a branch. `packed-refs` can be large and stays asynchronous.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isValidRefName } from './ref-names.js';
import { join } from 'node:path';

/** Whether a directory holds a file at any depth (empty directories can outlive deleted refs). */
function holdsFile(dir: string, depth = 0): boolean {
  if (depth > 32) return false;
  try {
    return readdirSync(dir, { withFileTypes: true }).some((entry) => (entry.isDirectory() ? holdsFile(join(dir, entry.name), depth + 1) : true));
  } catch {
    return false;
  }
}

/** Whether any branch exists, loose or packed. */
export function hasBranchesOnDisk(gitDir: string): boolean {
  if (holdsFile(join(gitDir, 'refs', 'heads'))) return true;
  try {
    return / refs\/heads\//.test(readFileSync(join(gitDir, 'packed-refs'), 'utf8'));
  } catch {
    return false;
  }
}

/** The branch HEAD points at, or null when HEAD is detached or missing. */
export async function headBranchOnDisk(gitDir: string): Promise<string | null> {
  try {
    const match = /^ref: refs\/heads\/(.+)$/m.exec(readFileSync(join(gitDir, 'HEAD'), 'utf8'));
    return match ? match[1]!.trim() : null;
  } catch {
    return null;
  }
}

/** The commit a loose ref file names, or null when there is none. */
function looseHead(gitDir: string, ref: string): string | null {
  try {
    const loose = readFileSync(join(gitDir, ref), 'utf8').trim();
    if (/^[0-9a-f]{40}$/.test(loose)) return loose;
  } catch {
    // not a loose ref
  }
  return null;
}

/** The packed refs' lines, or none. */
async function packedRefLines(gitDir: string): Promise<string[]> {
  try {
    return (await readFile(join(gitDir, 'packed-refs'), 'utf8')).split('\n');
  } catch {
    return [];
  }
}

const packedHead = (lines: readonly string[], ref: string) => {
  for (const line of lines) {
    if (line.endsWith(` ${ref}`) && line.length === 41 + ref.length) return line.slice(0, 40);
  }
  return null;
};

/** The commit a branch points at (loose ref first, then packed refs), or null. */
export async function branchHeadOnDisk(gitDir: string, branch: string): Promise<string | null> {
  if (!isValidRefName(branch)) return null;
  const ref = `refs/heads/${branch}`;
  return looseHead(gitDir, ref) ?? packedHead(await packedRefLines(gitDir), ref);
}

/** `branchHeadOnDisk` of several branches of one repository, reading `packed-refs` at most once. */
export async function branchHeadsOnDisk(gitDir: string, branches: Iterable<string>): Promise<Map<string, string | null>> {
  const heads = new Map<string, string | null>();
  const packed: string[] = [];
  for (const branch of branches) {
    if (heads.has(branch)) continue;
    const valid = isValidRefName(branch);
    const head = valid ? looseHead(gitDir, `refs/heads/${branch}`) : null;
    heads.set(branch, head);
    if (head === null && valid) packed.push(branch);
  }
  if (packed.length > 0) {
    const lines = await packedRefLines(gitDir);
    for (const branch of packed) heads.set(branch, packedHead(lines, `refs/heads/${branch}`));
  }
  return heads;
}
