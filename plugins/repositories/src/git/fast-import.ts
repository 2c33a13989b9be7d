/**
 * Commits are written with `git fast-import`: the tree edits are applied on top of the
 * parent's tree, the commit lands on a private temporary ref, and the caller then moves
 * the real branch with a compare-and-swap `update-ref` transaction.
 */
import { git } from './git-runner.js';
import { ZERO_SHA } from './ref-names.js';
import { RepositoryError } from './repository-error.js';

export interface GitIdentity {
  name: string;
  email: string;
}

/** One edit of the new commit's tree: set an entry (from bytes or an existing object) or delete one. */
export type TreeCommand = { op: 'set'; path: string; mode: string; content?: Buffer; sha?: string } | { op: 'delete'; path: string };

export interface NewCommit {
  /** The parent's id, or its mark (`:n`) in the fast-import process writing this commit. */
  parent: string | null;
  commands: TreeCommand[];
  message: string;
  author: GitIdentity;
  committer: GitIdentity;
  date?: Date;
}

/** fast-import's path syntax: C-style quotes when a path could be misread. */
function quotePath(path: string): string {
  if (!/[\n"\\]/.test(path) && !path.startsWith('"')) return path;
  return `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/** Names and emails may not hold the characters that delimit them in a commit header. */
const clean = (value: string) => value.replace(/[<>\n\r\0]/g, '').trim();

function data(bytes: Buffer): Buffer[] {
  return [Buffer.from(`data ${bytes.length}\n`), bytes, Buffer.from('\n')];
}

/**
 * fast-import's commands for one commit on `ref` (marked `mark`): its header, message,
 * parent and tree edits. A root commit first resets `ref`, which fast-import would
 * otherwise take as the parent.
 */
export function commitCommands(commit: NewCommit, ref: string, mark = ':1'): Buffer[] {
  const stamp = `${Math.floor((commit.date ?? new Date()).getTime() / 1000)} +0000`;
  const parts: Buffer[] = [
    Buffer.from(`${commit.parent ? '' : `reset ${ref}\n`}commit ${ref}\nmark ${mark}\n`),
    Buffer.from(`author ${clean(commit.author.name)} <${clean(commit.author.email)}> ${stamp}\n`),
    Buffer.from(`committer ${clean(commit.committer.name)} <${clean(commit.committer.email)}> ${stamp}\n`),
    ...data(Buffer.from(commit.message, 'utf8')),
  ];
  if (commit.parent) parts.push(Buffer.from(`from ${commit.parent}\n`));
  for (const command of commit.commands) {
    if (command.op === 'delete') parts.push(Buffer.from(`D ${quotePath(command.path)}\n`));
    else if (command.content) parts.push(Buffer.from(`M ${command.mode} inline ${quotePath(command.path)}\n`), ...data(command.content));
    else parts.push(Buffer.from(`M ${command.mode} ${command.sha} ${quotePath(command.path)}\n`));
  }
  parts.push(Buffer.from('\n'));
  return parts;
}

/** fast-import's `ls` of one path in a tree-ish. */
export const lsCommand = (treeish: string, path: string) => `ls ${treeish} ${quotePath(path)}\n`;

export interface RefUpdate {
  ref: string;
  /** The old target; null when the ref was created. */
  before: string | null;
  /** The new target; null when the ref was deleted. */
  after: string | null;
}

/**
 * Options for `update-ref` moving a branch: the ref file is fsynced before the answer, as
 * objects are. git's default syncs packs but not refs, so a crash right after a commit's
 * answer could otherwise lose the branch move.
 */
export const DURABLE_REFS = ['-c', 'core.fsync=reference'] as const;

/**
 * Applies ref updates in one transaction, each only if the ref still has its expected
 * target (null: must not exist). Refs in `drop` are deleted whatever happens. Throws
 * GitLab's "Could not update" error when someone else moved a ref first.
 */
export async function updateRefs(gitDir: string, updates: RefUpdate[], drop: string[] = []): Promise<void> {
  const { code } = await git(gitDir, [...DURABLE_REFS, 'update-ref', '--stdin'], { input: `${refUpdateLines(updates, drop).join('\n')}\n`, okCodes: [1, 128] });
  if (code === 0) return;
  await dropRefs(gitDir, drop);
  throw refUpdateFailed(updates);
}

/** `update-ref --stdin` lines for the updates, each checked against its expected target, and for refs to drop. */
export function refUpdateLines(updates: RefUpdate[], drop: readonly string[] = []): string[] {
  const lines = updates.map((update) =>
    update.after ? `update ${update.ref} ${update.after} ${update.before ?? ZERO_SHA}` : `delete ${update.ref} ${update.before ?? ''}`.trimEnd(),
  );
  return [...lines, ...[...new Set(drop)].map((ref) => `delete ${ref}`)];
}

/** GitLab's answer when someone else moved a ref first. */
export const refUpdateFailed = (updates: RefUpdate[]) =>
  new RepositoryError('ref_update', `Could not update ${updates[0]?.ref ?? 'the branch'}. Please refresh and try again.`);

/** Deletes temporary refs, ignoring any already gone. */
export async function dropRefs(gitDir: string, refs: string[]): Promise<void> {
  if (refs.length > 0) await git(gitDir, ['update-ref', '--stdin'], { input: refs.map((ref) => `delete ${ref}\n`).join(''), okCodes: [1, 128] });
}
