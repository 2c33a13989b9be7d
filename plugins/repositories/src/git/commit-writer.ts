/**
 * Commits a set of file actions to a branch without a working tree. The actions are
 * checked against the start commit's entries for the paths they touch (GitLab's
 * refusals), turned into tree edits, and written by the repository's fast-import
 * process, which also reads those entries; the branch then moves with
 * compare-and-swap, so a concurrent change fails this commit instead of being overwritten.
 */
import type { GitIdentity, RefUpdate, TreeCommand } from './fast-import.js';
import { isValidRefName, MAX_PATH_BYTES } from './ref-names.js';
import { branchHead, lastCommitFor, resolveCommit } from './repo-reader.js';
import type { RepositoryGit } from './repository-git.js';
import { RepositoryError } from './repository-error.js';

export type { GitIdentity, RefUpdate } from './fast-import.js';

export interface FileAction {
  action: 'create' | 'update' | 'delete' | 'move' | 'chmod';
  filePath: string;
  previousPath?: string | null;
  /** New content; a move without content keeps the old file's. */
  content?: Buffer | null;
  executeFilemode?: boolean | null;
  lastCommitId?: string | null;
}

export interface CommitFilesRequest {
  branch: string;
  /** The branch to start from when creating `branch` (defaults to `branch` itself). */
  startBranch?: string | null;
  startSha?: string | null;
  /** Overwrite an existing `branch` with a commit on top of the start point. */
  force?: boolean;
  /**
   * The branch tip the caller based its change on (null: the branch must not exist yet).
   * When given, the commit fails if the branch has moved since.
   */
  expectedHead?: string | null;
  message: string;
  author: GitIdentity;
  committer: GitIdentity;
  actions: FileAction[];
}

interface Entry {
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha?: string;
  content?: Buffer;
}

/** Gitaly's path checks, with its texts. */
export function checkFilePath(path: string): void {
  if (path === '') throw new RepositoryError('invalid_path', 'You must provide a file path');
  const parts = path.split('/');
  if (parts.includes('..')) throw new RepositoryError('invalid_path', 'Path cannot include directory traversal');
  if (path.includes('\0') || Buffer.byteLength(path) > MAX_PATH_BYTES || parts.some((part) => part === '' || part === '.' || part.toLowerCase() === '.git')) {
    throw new RepositoryError('invalid_path', `invalid path: '${path}'`);
  }
}

/** The refusal for the first bad path among the actions, or null. */
function firstPathProblem(actions: FileAction[]): RepositoryError | null {
  try {
    for (const action of actions) {
      checkFilePath(action.filePath);
      if (action.action === 'move') checkFilePath(action.previousPath ?? '');
    }
    return null;
  } catch (error) {
    if (error instanceof RepositoryError) return error;
    throw error;
  }
}

/** Every path an action reads or writes, plus their parent directories. */
function touchedPaths(actions: FileAction[]): string[] {
  const paths = new Set<string>();
  for (const action of actions) {
    for (const path of [action.filePath, action.previousPath]) {
      if (!path) continue;
      const parts = path.split('/');
      for (let i = 1; i <= parts.length; i++) paths.add(parts.slice(0, i).join('/'));
    }
  }
  return [...paths];
}

/** Applies the actions in order to the touched entries; returns fast-import's tree edits. */
function applyActions(entries: Map<string, Entry>, actions: FileAction[]): TreeCommand[] {
  const isFile = (path: string) => !!entries.get(path) && entries.get(path)!.type !== 'tree';
  const parentIsFile = (path: string) => {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) if (isFile(parts.slice(0, i).join('/'))) return true;
    return false;
  };
  const mustExist = (path: string) => {
    if (!isFile(path)) throw new RepositoryError('file_missing', "A file with this name doesn't exist");
    return entries.get(path)!;
  };
  const mustBeFree = (path: string) => {
    if (isFile(path) || parentIsFile(path)) throw new RepositoryError('file_exists', 'A file with this name already exists');
    if (entries.get(path)?.type === 'tree') throw new RepositoryError('directory_exists', 'A directory with this name already exists');
  };
  const commands: TreeCommand[] = [];
  const set = (path: string, entry: Entry) => {
    entries.set(path, entry);
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) entries.set(parts.slice(0, i).join('/'), { mode: '040000', type: 'tree' });
    commands.push({ op: 'set', path, mode: entry.mode, content: entry.content, sha: entry.sha });
  };
  const remove = (path: string) => {
    entries.delete(path);
    commands.push({ op: 'delete', path });
  };

  for (const action of actions) {
    const path = action.filePath;
    const content = action.content ?? undefined;
    switch (action.action) {
      case 'create':
        mustBeFree(path);
        set(path, { mode: action.executeFilemode ? '100755' : '100644', type: 'blob', content: content ?? Buffer.alloc(0) });
        break;
      case 'update': {
        const existing = mustExist(path);
        set(path, { mode: existing.type === 'commit' ? '100644' : existing.mode, type: 'blob', content: content ?? Buffer.alloc(0) });
        break;
      }
      case 'delete':
        mustExist(path);
        remove(path);
        break;
      case 'move': {
        const from = action.previousPath!;
        const existing = mustExist(from);
        if (from !== path) mustBeFree(path);
        remove(from);
        set(path, content ? { mode: existing.mode, type: 'blob', content } : existing);
        break;
      }
      case 'chmod': {
        const existing = mustExist(path);
        set(path, { ...existing, mode: action.executeFilemode ? '100755' : '100644' });
        break;
      }
    }
  }
  return commands;
}

/**
 * The tree edits of creates, updates and deletes as they will almost always turn out
 * (updated files keeping mode 100644), so the commit can be written while the current
 * entries are still being read. null when an action needs those entries first.
 */
function likelyCommands(actions: FileAction[]): TreeCommand[] | null {
  const commands: TreeCommand[] = [];
  for (const action of actions) {
    const content = action.content ?? Buffer.alloc(0);
    if (action.action === 'create') commands.push({ op: 'set', path: action.filePath, mode: action.executeFilemode ? '100755' : '100644', content });
    else if (action.action === 'update') commands.push({ op: 'set', path: action.filePath, mode: '100644', content });
    else if (action.action === 'delete') commands.push({ op: 'delete', path: action.filePath });
    else return null;
  }
  return commands;
}

const sameCommands = (a: TreeCommand[], b: TreeCommand[]) =>
  a.length === b.length &&
  a.every((command, i) => {
    const other = b[i]!;
    if (command.op !== other.op || command.path !== other.path) return false;
    if (command.op === 'delete' || other.op === 'delete') return true;
    return (
      command.mode === other.mode &&
      command.sha === other.sha &&
      (command.content === other.content || !!command.content?.equals(other.content ?? Buffer.alloc(0)))
    );
  });

/**
 * The branch tip a commit of a group builds on: the group's previous commit, by id and by
 * its mark in the fast-import process (which alone knows it until the group's checkpoint).
 */
export interface PendingTip {
  sha: string;
  mark: string;
}

/**
 * Checks the request, writes the commit and returns it with the branch update to apply
 * (and the temporary ref to drop); the caller moves the branch. Given a `tip`, the commit
 * goes on top of it and is not yet durable: the caller checkpoints before moving the branch.
 */
export async function buildFilesCommit(repositoryGit: RepositoryGit, request: CommitFilesRequest, empty: boolean, tip?: PendingTip) {
  const { gitDir } = repositoryGit;
  const { branch } = request;
  const startBranch = request.startSha ? null : (request.startBranch ?? branch);
  const differentBranch = !!request.startSha || startBranch !== branch;
  if (request.startSha && !/^[0-9a-f]{7,40}$/i.test(request.startSha)) {
    throw new RepositoryError('invalid_start_sha', `Invalid start_sha '${request.startSha}'`);
  }
  const [current, parent] = await Promise.all([
    tip ? tip.sha : branchHead(gitDir, branch),
    request.startSha ? resolveCommit(gitDir, request.startSha) : startBranch === branch ? null : branchHead(gitDir, startBranch!),
  ]);
  if (request.expectedHead !== undefined && request.expectedHead !== current) {
    throw new RepositoryError('ref_update', `Could not update refs/heads/${branch}. Please refresh and try again.`);
  }
  const from = differentBranch ? parent : current;
  // How fast-import names the start commit: a pending tip by its mark.
  const start = tip && from === tip.sha ? tip.mark : from;
  const message = request.message;
  const write = (commands: TreeCommand[]) =>
    repositoryGit.writeCommit({ parent: start, commands, message, author: request.author, committer: request.committer }, { durable: !tip });

  // Paths are checked before any reaches git; a bad one is reported where GitLab reports it.
  const pathProblem = firstPathProblem(request.actions);
  const likely = from && !pathProblem && likelyCommands(request.actions);
  // Both go to the one fast-import process: the commit is written right after the entries are read.
  const [entries, early] = await Promise.all([
    start && !pathProblem ? repositoryGit.entriesAt(start, touchedPaths(request.actions)) : Promise.resolve(new Map<string, Entry>()),
    likely ? write(likely) : Promise.resolve(null),
  ]);
  if (request.startSha && !from) throw new RepositoryError('missing_start_sha', `Cannot find start_sha '${request.startSha}'`);
  if (!request.startSha && !from && !empty) throw new RepositoryError('not_on_branch', 'You can only create or edit files when you are on a branch');
  if (!empty && differentBranch && current && !request.force) {
    throw new RepositoryError('branch_exists', `A branch called '${branch}' already exists. Switch to that branch in order to make changes`);
  }
  if (!isValidRefName(branch)) {
    throw new RepositoryError(
      'invalid_branch',
      differentBranch ? `Something went wrong when we tried to create '${branch}' for you: Branch name is invalid` : 'Branch name is invalid',
    );
  }
  if (from && !pathProblem) {
    for (const action of request.actions) {
      if (!action.lastCommitId || !['update', 'move', 'delete'].includes(action.action)) continue;
      const path = action.previousPath ?? action.filePath;
      const last = await lastCommitFor(gitDir, from, path);
      if (last && last !== action.lastCommitId) throw new RepositoryError('file_changed', `The file has changed since you started editing it: ${path}`);
    }
  }
  if (pathProblem) throw pathProblem;
  const commands = applyActions(entries, request.actions);
  const written = early && likely && sameCommands(likely, commands) ? early : await write(commands);
  // The temporary ref is the fast-import process's own and the next commit reuses it. An
  // unused early commit sat on the same ref, or on that of a process since replaced, which
  // deletes its own.
  const update: RefUpdate = { ref: `refs/heads/${branch}`, before: current, after: written.commit };
  return { commit: written.commit, mark: written.mark, update, tempRefs: [written.tempRef] };
}
