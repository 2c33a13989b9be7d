/**
 * Ref facts read straight from a bare repository's files (git's default "files" ref
 * backend), for checks too frequent to spawn git for. `HEAD` and a loose ref are a few bytes
 * and read synchronously: a promise-based read costs about ten times the CPU (file handle,
 * stat, read and close, each a round trip through the thread pool), and these reads run on
 * every request that names a branch. `packed-refs` can be large and stays asynchronous.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isValidRefName } from './ref-names.js';
import { dirname, join } from 'node:path';

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

/**
 * A change this recent may share its timestamps with the one before it (file times advance
 * by clock ticks): heads read under a directory or `packed-refs` changed this recently are
 * not kept. Git's own "racy" rule for its index.
 */
const SETTLED_MS = 2000;
/** Repositories whose heads are kept; past this many the oldest is dropped. */
const KEPT_REPOSITORIES = 1000;

/**
 * What a file or directory is now: inode, size and times, or `none`; null when it changed too
 * recently for its stamp to tell a later change apart.
 */
function stampOf(path: string, settledBefore: number): string | null {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (!stats) return 'none';
  if (stats.ctimeMs >= settledBefore || stats.mtimeMs >= settledBefore) return null;
  return `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

interface KeptDirectory {
  stamp: string;
  heads: Map<string, string | null>;
}
interface KeptRepository {
  packed: string;
  directories: Map<string, KeptDirectory>;
}

/**
 * Heads already read, per repository and per directory of loose refs, with the stamps they
 * were read under. Git (and libgit2) write a loose ref as a lock file renamed over it, and
 * create, rename and delete each change the directory, so a branch moves only if its
 * directory's stamp or `packed-refs`' stamp does. The stamps come from the files, so a push
 * through any process, or git run by hand, is seen on the next read.
 */
const kept = new Map<string, KeptRepository>();

/** `branchHeadOnDisk` of several branches of one repository, reading `packed-refs` at most once. */
export async function branchHeadsOnDisk(gitDir: string, branches: Iterable<string>, now: () => number = Date.now): Promise<Map<string, string | null>> {
  const heads = new Map<string, string | null>();
  const settledBefore = now() - SETTLED_MS;
  const packedStamp = stampOf(join(gitDir, 'packed-refs'), settledBefore);
  let repository = packedStamp === null ? undefined : kept.get(gitDir);
  if (packedStamp !== null && repository?.packed !== packedStamp) {
    repository = { packed: packedStamp, directories: new Map() };
    kept.delete(gitDir);
    if (kept.size >= KEPT_REPOSITORIES) kept.delete(kept.keys().next().value!);
    kept.set(gitDir, repository);
  }
  /** Each directory is looked at once per call. */
  const stamped = new Map<string, KeptDirectory | undefined>();
  const missing: { branch: string; directory: KeptDirectory | undefined }[] = [];
  for (const branch of branches) {
    if (heads.has(branch)) continue;
    if (!isValidRefName(branch)) {
      heads.set(branch, null);
      continue;
    }
    const ref = `refs/heads/${branch}`;
    let directory: KeptDirectory | undefined;
    if (repository) {
      const path = dirname(ref);
      directory = stamped.get(path);
      if (!stamped.has(path)) {
        directory = repository.directories.get(path);
        const stamp = stampOf(join(gitDir, path), settledBefore);
        if (stamp === null) directory = undefined;
        else if (directory?.stamp !== stamp) repository.directories.set(path, (directory = { stamp, heads: new Map() }));
        stamped.set(path, directory);
      }
      const known = directory?.heads.get(branch);
      if (known !== undefined) {
        heads.set(branch, known);
        continue;
      }
    }
    const head = looseHead(gitDir, ref);
    heads.set(branch, head);
    if (head === null) missing.push({ branch, directory });
    else directory?.heads.set(branch, head);
  }
  if (missing.length > 0) {
    const lines = await packedRefLines(gitDir);
    for (const { branch, directory } of missing) {
      const head = packedHead(lines, `refs/heads/${branch}`);
      heads.set(branch, head);
      directory?.heads.set(branch, head);
    }
  }
  return heads;
}
