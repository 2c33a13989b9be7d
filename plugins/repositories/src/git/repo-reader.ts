/** Reading a bare repository: revisions, commits, refs, trees and blobs. */
import { argumentChunks, git, gitText } from './git-runner.js';
import { isSafeRevision } from './ref-names.js';
import { branchHeadOnDisk, branchHeadsOnDisk, hasBranchesOnDisk, headBranchOnDisk } from './refs-on-disk.js';

export interface CommitInfo {
  id: string;
  parentIds: string[];
  authorName: string;
  authorEmail: string;
  /** ISO 8601 with the commit's own offset, e.g. `2024-05-01T10:00:00+02:00`. */
  authoredDate: string;
  committerName: string;
  committerEmail: string;
  committedDate: string;
  message: string;
}

export interface RefInfo {
  /** Short name: `main`, `v1.0`. */
  name: string;
  /** The commit the ref points at (tags peeled). */
  commitId: string;
  /** The ref's own target: an annotated tag's object id, else the commit id. */
  targetId: string;
  /** An annotated tag's message, else null. */
  tagMessage: string | null;
  /** An annotated tag's date, else null. */
  tagDate: string | null;
  /** The committer date of the commit the ref points at (tags peeled), ISO 8601: what "updated" orders refs by. */
  committedDate: string;
}

export interface TreeEntry {
  id: string;
  name: string;
  type: 'tree' | 'blob' | 'commit';
  path: string;
  mode: string;
}

export interface BlobInfo {
  id: string;
  mode: string;
  size: number;
  data: Buffer;
}

const FIELD = '\x1f';
const RECORD = '\x1e';
const END = '\x1d';
export const COMMIT_FORMAT = `--format=${RECORD}%H${FIELD}%P${FIELD}%an${FIELD}%ae${FIELD}%aI${FIELD}%cn${FIELD}%ce${FIELD}%cI${FIELD}%B`;

function parseCommits(output: string): CommitInfo[] {
  return output
    .split(RECORD)
    .filter((record) => record.length > 0)
    .map((record) => {
      const [id, parents, authorName, authorEmail, authoredDate, committerName, committerEmail, committedDate, ...rest] = record.split(FIELD);
      return {
        id: id!,
        parentIds: parents ? parents.split(' ').filter(Boolean) : [],
        authorName: authorName!,
        authorEmail: authorEmail!,
        authoredDate: authoredDate!,
        committerName: committerName!,
        committerEmail: committerEmail!,
        committedDate: committedDate!,
        // git log separates records with a newline after the body.
        message: rest.join(FIELD).replace(/\n$/, ''),
      };
    });
}

/** The commit a branch, tag or sha names, or null. */
export async function resolveCommit(gitDir: string, revision: string): Promise<string | null> {
  if (!isSafeRevision(revision)) return null;
  const { stdout, code } = await git(gitDir, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`], { okCodes: [1, 128] });
  return code === 0 ? stdout.toString('utf8').trim() : null;
}

/** The commit at the tip of a branch, or null. */
export const branchHead = (gitDir: string, branch: string) => branchHeadOnDisk(gitDir, branch);

/** The commit at the tip of each of several branches (null for a missing one). */
export const branchHeads = (gitDir: string, branches: Iterable<string>) => branchHeadsOnDisk(gitDir, branches);

export async function readCommit(gitDir: string, revision: string): Promise<CommitInfo | null> {
  const sha = await resolveCommit(gitDir, revision);
  if (!sha) return null;
  const { stdout } = await git(gitDir, ['show', '-s', COMMIT_FORMAT, sha]);
  return parseCommits(stdout.toString('utf8'))[0] ?? null;
}

export interface LogOptions {
  /** Revisions to start from; `all` walks every ref instead. */
  revisions?: string[];
  all?: boolean;
  path?: string | null;
  since?: Date | null;
  until?: Date | null;
  author?: string | null;
  firstParent?: boolean;
  topoOrder?: boolean;
  /** Commits reachable from these are left out (`a..b`). */
  exclude?: string[];
  reverse?: boolean;
  limit?: number;
  offset?: number;
}

function logArgs(options: LogOptions): string[] {
  const args: string[] = [];
  if (options.since) args.push(`--max-age=${Math.floor(options.since.getTime() / 1000)}`);
  if (options.until) args.push(`--min-age=${Math.floor(options.until.getTime() / 1000)}`);
  if (options.author) args.push(`--author=${options.author}`, '--regexp-ignore-case', '--fixed-strings');
  if (options.firstParent) args.push('--first-parent');
  if (options.topoOrder) args.push('--topo-order');
  if (options.all) args.push('--branches', '--tags');
  else args.push(...(options.revisions ?? []));
  for (const excluded of options.exclude ?? []) args.push(`^${excluded}`);
  args.push('--');
  if (options.path) args.push(options.path);
  return args;
}

export async function listCommits(gitDir: string, options: LogOptions): Promise<CommitInfo[]> {
  const args = ['log', COMMIT_FORMAT];
  if (options.reverse) args.push('--reverse');
  if (options.limit !== undefined) args.push(`--max-count=${options.limit}`);
  if (options.offset) args.push(`--skip=${options.offset}`);
  const { stdout } = await git(gitDir, [...args, ...logArgs(options)]);
  return parseCommits(stdout.toString('utf8'));
}

export async function countCommits(gitDir: string, options: LogOptions): Promise<number> {
  const text = await gitText(gitDir, ['rev-list', '--count', ...logArgs(options)]);
  return Number(text) || 0;
}

/** Lines added and removed by a commit against its first parent (the empty tree for a root). */
export async function commitStats(gitDir: string, sha: string): Promise<{ additions: number; deletions: number; total: number }> {
  return sumNumstat(await gitText(gitDir, ['diff-tree', '--numstat', '-M', '-r', '--root', '--no-commit-id', '-m', '--first-parent', sha]));
}

/** A commit with its line stats, read in one go. */
export async function readCommitWithStats(
  gitDir: string,
  revision: string,
): Promise<{ commit: CommitInfo; stats: { additions: number; deletions: number; total: number } } | null> {
  if (!isSafeRevision(revision)) return null;
  const args = ['show', '--numstat', '-M', '--diff-merges=first-parent', `${COMMIT_FORMAT}%n${END}`, '--end-of-options', `${revision}^{commit}`, '--'];
  const { stdout, code } = await git(gitDir, args, { okCodes: [128] });
  if (code !== 0) return null;
  return parseCommitWithStats(stdout.toString('utf8'));
}

export type CommitStats = { additions: number; deletions: number; total: number };

/** The commit and line stats of `--format=COMMIT_FORMAT%nEND --numstat` output (`git show`, `git diff-tree --stdin`). */
export function parseCommitWithStats(text: string): { commit: CommitInfo; stats: CommitStats } | null {
  const end = text.lastIndexOf(END);
  if (end === -1) return null;
  const commit = parseCommits(text.slice(0, end))[0];
  if (!commit) return null;
  return { commit, stats: sumNumstat(text.slice(end + 1)) };
}

/** The format of a commit followed by the end mark its stats follow. */
export const COMMIT_WITH_STATS_FORMAT = `${COMMIT_FORMAT}%n${END}`;

function sumNumstat(text: string) {
  let additions = 0;
  let deletions = 0;
  for (const line of text.split('\n')) {
    const [added, removed] = line.split('\t');
    if (added && added !== '-') additions += Number(added) || 0;
    if (removed && removed !== '-') deletions += Number(removed) || 0;
  }
  return { additions, deletions, total: additions + deletions };
}

/** Branches (`refs/heads/`) or tags (`refs/tags/`), tags peeled to their commits. */
export async function listRefs(gitDir: string, kind: 'branches' | 'tags'): Promise<RefInfo[]> {
  const prefix = kind === 'branches' ? 'refs/heads/' : 'refs/tags/';
  const format = [
    `%(refname)`,
    '%(objectname)',
    '%(*objectname)',
    '%(objecttype)',
    '%(*objecttype)',
    '%(creatordate:iso-strict)',
    '%(committerdate:iso-strict)',
    '%(*committerdate:iso-strict)',
    '%(contents)',
  ].join(FIELD);
  const text = await gitText(gitDir, ['for-each-ref', `--format=${RECORD}${format}`, prefix]);
  const refs: RefInfo[] = [];
  for (const record of text.split(RECORD)) {
    if (!record) continue;
    const [refname, objectName, peeledName, objectType, peeledType, date, committed, peeledCommitted, ...contents] = record.split(FIELD);
    const annotated = objectType === 'tag';
    // A tag may point at something other than a commit (a tree or blob); those have no commit.
    const commitId = annotated ? (peeledType === 'commit' ? peeledName! : '') : objectType === 'commit' ? objectName! : '';
    if (!commitId) continue;
    refs.push({
      name: refname!.slice(prefix.length),
      commitId,
      targetId: objectName!,
      tagMessage: annotated ? contents.join(FIELD).replace(/\n+$/, '') : null,
      tagDate: annotated ? date! : null,
      committedDate: annotated ? peeledCommitted! : committed!,
    });
  }
  return refs;
}

/** The branch HEAD names (the repository's default branch), or null. */
export const headBranch = (gitDir: string) => headBranchOnDisk(gitDir);

const ENTRY = /^(\d+) (\w+) ([0-9a-f]+)\t/;

function parseEntries(output: Buffer): TreeEntry[] {
  return output
    .toString('utf8')
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const match = ENTRY.exec(line)!;
      const path = line.slice(match[0].length);
      return { id: match[3]!, name: path.slice(path.lastIndexOf('/') + 1), type: match[2] as TreeEntry['type'], path, mode: match[1]! };
    });
}

/** Entries of the tree at `path` in a commit (null when the path is not a directory). */
export async function readTree(gitDir: string, commit: string, path: string, recursive: boolean): Promise<TreeEntry[] | null> {
  const clean = path.replace(/^\/+|\/+$/g, '');
  if (clean) {
    const self = await entryAt(gitDir, commit, clean);
    if (self?.type !== 'tree') return null;
  }
  const args = ['ls-tree', '-z', ...(recursive ? ['-r', '-t'] : []), commit, '--'];
  if (clean) args.push(`${clean}/`);
  const { stdout } = await git(gitDir, args);
  return parseEntries(stdout).filter((entry) => entry.path !== clean);
}

/** The tree entry at a path in a commit, or null. */
export async function entryAt(gitDir: string, commit: string, path: string): Promise<TreeEntry | null> {
  const { stdout } = await git(gitDir, ['ls-tree', '-z', commit, '--', path]);
  return parseEntries(stdout).find((entry) => entry.path === path) ?? null;
}

/** Entries for several exact paths at once (missing ones left out). */
export async function entriesAt(gitDir: string, commit: string, paths: string[]): Promise<Map<string, TreeEntry>> {
  const wanted = new Set(paths);
  const found = new Map<string, TreeEntry>();
  for (const chunk of argumentChunks(paths)) {
    const { stdout } = await git(gitDir, ['ls-tree', '-z', commit, '--', ...chunk]);
    for (const entry of parseEntries(stdout)) if (wanted.has(entry.path)) found.set(entry.path, entry);
  }
  return found;
}

export async function readBlob(gitDir: string, commit: string, path: string): Promise<BlobInfo | null> {
  const entry = await entryAt(gitDir, commit, path.replace(/^\/+/, ''));
  if (entry?.type !== 'blob') return null;
  const { stdout } = await git(gitDir, ['cat-file', 'blob', entry.id]);
  return { id: entry.id, mode: entry.mode, size: stdout.length, data: stdout };
}

/** A blob by its object id, or null. */
export async function readBlobById(gitDir: string, sha: string): Promise<BlobInfo | null> {
  if (!/^[0-9a-f]{4,40}$/i.test(sha)) return null;
  const id = await git(gitDir, ['rev-parse', '--verify', '--quiet', `${sha}^{blob}`], { okCodes: [1, 128] });
  if (id.code !== 0) return null;
  const { stdout } = await git(gitDir, ['cat-file', 'blob', id.stdout.toString('utf8').trim()]);
  return { id: id.stdout.toString('utf8').trim(), mode: '100644', size: stdout.length, data: stdout };
}

/**
 * Several blobs by object id in one `git cat-file --batch`, rather than a process or two
 * per blob; ids that are no blob are left out of the map.
 */
export async function readBlobsById(gitDir: string, ids: readonly string[]): Promise<Map<string, BlobInfo>> {
  const wanted = [...new Set(ids.filter((id) => /^[0-9a-f]{40}([0-9a-f]{24})?$/i.test(id)))];
  const found = new Map<string, BlobInfo>();
  if (wanted.length === 0) return found;
  const { stdout } = await git(gitDir, ['cat-file', '--batch'], { input: `${wanted.join('\n')}\n` });
  let offset = 0;
  while (offset < stdout.length) {
    const end = stdout.indexOf(0x0a, offset);
    const [id, type, size] = stdout.toString('utf8', offset, end).split(' ');
    offset = end + 1;
    // `<id> missing` has no content; an object is followed by its bytes and a newline.
    if (size === undefined) continue;
    const data = stdout.subarray(offset, offset + Number(size));
    offset += Number(size) + 1;
    if (type === 'blob') found.set(id!, { id: id!, mode: '100644', size: data.length, data });
  }
  return found;
}

/** The last commit at or before `commit` that touched `path`. */
export async function lastCommitFor(gitDir: string, commit: string, path: string): Promise<string | null> {
  const text = await gitText(gitDir, ['log', '-1', '--format=%H', commit, '--', path]);
  return text || null;
}

export async function mergeBase(gitDir: string, a: string, b: string): Promise<string | null> {
  const { stdout, code } = await git(gitDir, ['merge-base', a, b], { okCodes: [1] });
  return code === 0 ? stdout.toString('utf8').trim() : null;
}

/** Whether the repository has any branch (GitLab's `empty_repo` is its absence). */
export const hasBranches = async (gitDir: string) => hasBranchesOnDisk(gitDir);

/** Paths a commit added, changed and removed against its first parent. */
export async function changedPaths(gitDir: string, sha: string): Promise<ChangedPaths> {
  const { stdout } = await git(gitDir, ['diff-tree', '-z', '--name-status', '-r', '--no-commit-id', '--root', '-m', '--first-parent', '--no-renames', sha]);
  return parseChangedPaths(stdout);
}

export interface ChangedPaths {
  added: string[];
  modified: string[];
  removed: string[];
}

/** `diff-tree -z --name-status` output as paths added, changed and removed. */
export function parseChangedPaths(output: Buffer): ChangedPaths {
  const parts = output.toString('utf8').split('\0').filter(Boolean);
  const changes = { added: [] as string[], modified: [] as string[], removed: [] as string[] };
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const status = parts[i]!.charAt(0);
    const path = parts[i + 1]!;
    if (status === 'A') changes.added.push(path);
    else if (status === 'D') changes.removed.push(path);
    else changes.modified.push(path);
  }
  return changes;
}
