/**
 * The repository service: where each repository lives, whether it takes writes, and
 * every read and write other code does on it. Writes check the read-only flag, move
 * refs with compare-and-swap, and report each ref update to listeners (push events).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { keptUnderMark, type Database } from '@forgekit/kernel';
import { unlessTaken } from '@forgekit/kernel/orm';
import { buildFilesCommit, type CommitFilesRequest, type PendingTip } from '../git/commit-writer.js';
import { refUpdateFailed, type GitIdentity, type RefUpdate } from '../git/fast-import.js';
import { buildMerge, checkMerge, type MergeRequestToGit } from '../git/merge-writer.js';
import { hasBranchesOnDisk } from '../git/refs-on-disk.js';
import { diffCommits } from '../git/diff-reader.js';
import { git, gitText } from '../git/git-runner.js';
import { isValidRefName } from '../git/ref-names.js';
import * as reader from '../git/repo-reader.js';
import { createRepositoryGits } from '../git/repository-git.js';
import { READ_ONLY_MESSAGE, RepositoryError } from '../git/repository-error.js';
import { buildEditsCommit, type TreeEdit } from '../git/tree-edits.js';
import { RepositoryEntity, type RepositoryRow } from '../entities/repository.js';
import { diskPathFor, pickByWeight, type RepositoryKey, type RepositoryKind } from './storages.js';

/** Repository rows kept by `find`; past this many, the memo starts again. */
const ROWS_KEPT = 1024;

export interface RepositoryHandle {
  id: number;
  kind: RepositoryKind;
  containerId: number;
  storage: string;
  diskPath: string;
  readOnly: boolean;
  /** Absolute path of the bare repository. */
  gitDir: string;
}

/** Who made a change, for commits and push events. */
export interface Pusher extends GitIdentity {
  id: number;
  username: string;
}

export interface RefsUpdated {
  repository: RepositoryHandle;
  updates: RefUpdate[];
  pusher: Pusher | null;
}

export type RefsUpdatedListener = (event: RefsUpdated) => void | Promise<void>;

/**
 * How a plugin that owns a kind of container (snippets) tells others about it, for
 * answers such as storage moves: whether one exists and how to show it.
 */
export interface ContainerDescriber {
  exists(id: number): Promise<boolean>;
  present(ids: number[], externalUrl: string): Promise<Map<number, Record<string, unknown>>>;
}

export interface RepositoryServiceOptions {
  database: Database;
  storages: ReadonlyMap<string, string>;
  /** The `repository_storages_weighted` setting. */
  weights: () => Promise<Record<string, number>>;
}

const EMPTY_CHECK_TTL_MS = 2000;

export function createRepositoryService({ database, storages, weights }: RepositoryServiceOptions) {
  const listeners: RefsUpdatedListener[] = [];
  /** Each repository's long-lived git processes: commits and ref moves start no program. */
  const gits = createRepositoryGits();
  const describers = new Map<RepositoryKind, ContainerDescriber>();
  /** Writes running in this process, per repository id, so a storage move can wait them out. */
  const activeWrites = new Map<number, number>();
  const drained = new Map<number, (() => void)[]>();

  /** Runs a write: refused on a read-only repository, counted while it runs. */
  async function writing<T>(repository: RepositoryHandle, write: () => Promise<T>): Promise<T> {
    if (repository.readOnly) throw new RepositoryError('read_only', READ_ONLY_MESSAGE);
    activeWrites.set(repository.id, (activeWrites.get(repository.id) ?? 0) + 1);
    try {
      return await write();
    } finally {
      const left = activeWrites.get(repository.id)! - 1;
      if (left > 0) activeWrites.set(repository.id, left);
      else {
        activeWrites.delete(repository.id);
        for (const resolve of drained.get(repository.id) ?? []) resolve();
        drained.delete(repository.id);
      }
    }
  }

  const storagePath = (name: string) => {
    const path = storages.get(name);
    if (!path) throw new Error(`Repository storage '${name}' is not configured`);
    return path;
  };

  const toHandle = (row: RepositoryRow): RepositoryHandle => ({
    id: row.id,
    kind: row.containerType,
    containerId: row.containerId,
    storage: row.storage,
    diskPath: row.diskPath,
    readOnly: row.readOnly,
    gitDir: join(storagePath(row.storage), row.diskPath),
  });

  // Looked up on every repository request: compiled once.
  const byKey = database.prepareRows((p) => database.from(RepositoryEntity).where({ containerType: p.kind, containerId: p.containerId }));
  const byId = database.prepareRows((p) => database.from(RepositoryEntity).where('id', p.id));

  /**
   * Rows by container, kept while the database's change mark stays: the mark is read before
   * the row, so a row created, moved or removed by any process since is read again. Each
   * call gets a handle of its own.
   */
  const keptRows = keptUnderMark<RepositoryRow | undefined>(ROWS_KEPT);

  async function find(key: RepositoryKey): Promise<RepositoryHandle | null> {
    const row = await keptRows(`${key.kind}:${key.containerId}`, database.changeMark(), () => byKey.first({ kind: key.kind, containerId: key.containerId }));
    return row ? toHandle(row) : null;
  }

  /**
   * What `git init --bare --initial-branch` writes, less its sample hooks and description,
   * written here: starting git forks the whole server process, which costs it far more CPU
   * than a project create does otherwise. HEAD comes last, through a rename: a directory
   * with HEAD is a whole repository.
   */
  async function initBare(gitDir: string, defaultBranch: string) {
    if (existsSync(join(gitDir, 'HEAD'))) return;
    const branch = isValidRefName(defaultBranch) ? defaultBranch : 'main';
    await Promise.all(['objects/info', 'objects/pack', 'refs/heads', 'refs/tags'].map((dir) => mkdir(join(gitDir, dir), { recursive: true })));
    await writeFile(join(gitDir, 'config'), '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n');
    const head = join(gitDir, `HEAD.${randomBytes(6).toString('hex')}.tmp`);
    await writeFile(head, `ref: refs/heads/${branch}\n`);
    await rename(head, join(gitDir, 'HEAD'));
  }

  async function assertWritable(repository: RepositoryHandle) {
    const row = await byId.first({ id: repository.id });
    if (!row || row.readOnly) throw new RepositoryError('read_only', READ_ONLY_MESSAGE);
  }

  /**
   * `empty_repo` is shown on every project representation, so the disk check is kept for
   * a moment: this process forgets it on its own ref updates, and another process's
   * update shows within EMPTY_CHECK_TTL_MS.
   */
  const emptyChecks = new Map<string, { empty: boolean; at: number }>();
  /** The git directory a disk path was found at, by preferred storage and disk path. */
  const foundAt = new Map<string, string>();

  /**
   * Commits built from API requests take turns per repository in this process: two at once
   * would both start from the same branch head and one would lose the compare-and-swap.
   * Between processes the compare-and-swap still decides.
   */
  const commitQueues = new Map<number, Promise<unknown>>();
  function oneAtATime<T>(repository: RepositoryHandle, build: () => Promise<T>): Promise<T> {
    const run = (commitQueues.get(repository.id) ?? Promise.resolve()).catch(() => undefined).then(build);
    commitQueues.set(repository.id, run);
    void run
      .catch(() => undefined)
      .finally(() => {
        if (commitQueues.get(repository.id) === run) commitQueues.delete(repository.id);
      });
    return run;
  }

  type FilesCommitted = Awaited<ReturnType<typeof commitAlone>>;
  interface Waiting {
    request: CommitFilesRequest;
    pusher: Pusher | null;
    resolve(result: FilesCommitted): void;
    reject(error: unknown): void;
  }
  /** Per repository, the group of commits gathering while earlier commits are written. */
  const gathering = new Map<number, { branch: string; members: Waiting[] }>();

  /** A plain commit on top of its branch, which can share a group's checkpoint and ref move. */
  const groupable = (request: CommitFilesRequest) =>
    !request.startSha &&
    (request.startBranch ?? request.branch) === request.branch &&
    !request.force &&
    request.expectedHead === undefined &&
    request.actions.every((action) => !action.lastCommitId);

  /**
   * Commits to one branch that arrive while the repository is busy are written together
   * when their turn comes: each on top of the one before, one checkpoint for all of them,
   * one branch move (so one fsync of each kind for the group), and then a push event for
   * each in order. A commit refused by its checks drops out of the group alone.
   */
  function commitFilesInTurn(repository: RepositoryHandle, request: CommitFilesRequest, pusher: Pusher | null): Promise<FilesCommitted> {
    if (!groupable(request)) {
      // Later commits queue behind this one rather than join a group ahead of it.
      gathering.delete(repository.id);
      return oneAtATime(repository, () => commitAlone(repository, request, pusher));
    }
    const group = gathering.get(repository.id);
    return new Promise((resolve, reject) => {
      const waiting = { request, pusher, resolve, reject };
      if (group && group.branch === request.branch) {
        group.members.push(waiting);
        return;
      }
      const next = { branch: request.branch, members: [waiting] };
      gathering.set(repository.id, next);
      void oneAtATime(repository, async () => {
        if (gathering.get(repository.id) === next) gathering.delete(repository.id);
        await commitGroup(repository, next.members);
      }).catch((error) => {
        for (const member of next.members) member.reject(error);
      });
    });
  }

  async function commitAlone(repository: RepositoryHandle, request: CommitFilesRequest, pusher: Pusher | null) {
    const empty = !hasBranchesOnDisk(repository.gitDir);
    const repositoryGit = gits.get(repository.gitDir);
    const { commit, update, tempRefs } = await buildFilesCommit(repositoryGit, request, empty);
    // The new commit's details are read while the branch moves.
    const [shown] = await Promise.all([repositoryGit.showCommit(commit), moveRefs(repository, [update], pusher, tempRefs)]);
    const details = shown ?? (await reader.readCommitWithStats(repository.gitDir, commit));
    // The first branch of an empty repository becomes its default.
    if (empty && (await reader.headBranch(repository.gitDir)) !== request.branch) await service.setHeadBranch(repository, request.branch);
    return { commit, update, becameDefault: empty, details: details! };
  }

  async function commitGroup(repository: RepositoryHandle, members: Waiting[]) {
    const [first] = members;
    if (members.length === 1 || !hasBranchesOnDisk(repository.gitDir)) {
      for (const { request, pusher, resolve, reject } of members) await commitAlone(repository, request, pusher).then(resolve, reject);
      return;
    }
    const repositoryGit = gits.get(repository.gitDir);
    const head = await reader.branchHead(repository.gitDir, first!.request.branch);
    if (!head) {
      for (const { request, pusher, resolve, reject } of members) await commitAlone(repository, request, pusher).then(resolve, reject);
      return;
    }
    let tip: PendingTip = { sha: head, mark: head };
    const built: { waiting: Waiting; commit: string; update: RefUpdate; tempRefs: string[] }[] = [];
    for (const waiting of members) {
      try {
        const { commit, mark, update, tempRefs } = await buildFilesCommit(repositoryGit, waiting.request, false, tip);
        built.push({ waiting, commit, update, tempRefs });
        tip = { sha: commit, mark };
      } catch (error) {
        waiting.reject(error);
      }
    }
    if (built.length === 0) return;
    /** Each commit's answer, given once its push has been reported. */
    let answers: Promise<() => void>[] = [];
    try {
      await repositoryGit.checkpoint();
      // The commits' details are read while the branch moves.
      answers = built.map(({ waiting, commit, update }) =>
        repositoryGit
          .showCommit(commit)
          .then(async (details) => ({
            commit,
            update,
            becameDefault: false,
            details: (details ?? (await reader.readCommitWithStats(repository.gitDir, commit)))!,
          }))
          .then(
            (result) => () => waiting.resolve(result),
            (error) => () => waiting.reject(error),
          ),
      );
      const move = { ref: built[0]!.update.ref, before: head, after: tip.sha };
      await assertWritable(repository);
      if (!(await repositoryGit.updateRefs([move], [...new Set(built.flatMap((one) => one.tempRefs))]))) throw refUpdateFailed([move]);
    } catch (error) {
      for (const { waiting } of built) waiting.reject(error);
      return;
    }
    // Each commit is reported as its own push, in order, as if they had come one by one.
    for (const { waiting, update } of built) await notify(repository, [update], waiting.pusher);
    for (const answer of await Promise.all(answers)) answer();
  }

  async function notify(repository: RepositoryHandle, updates: RefUpdate[], pusher: Pusher | null) {
    emptyChecks.delete(repository.gitDir);
    for (const listener of listeners) await listener({ repository, updates, pusher });
  }

  /**
   * Applies ref updates with compare-and-swap after a last read-only check, then reports
   * them. `drop` names temporary refs to delete in the same transaction (a refused move
   * leaves them to the fast-import process that owns them, which reuses them).
   */
  async function moveRefs(repository: RepositoryHandle, updates: RefUpdate[], pusher: Pusher | null, drop: string[] = []) {
    await assertWritable(repository);
    if (!(await gits.get(repository.gitDir).updateRefs(updates, drop))) throw refUpdateFailed(updates);
    await notify(repository, updates, pusher);
  }

  const service = {
    storages,
    storagePath,
    /** A storage for a new repository, drawn by the configured weights. */
    async pickStorage(exclude?: string): Promise<string> {
      return pickByWeight(await weights(), storages, exclude);
    },
    find,
    async findById(id: number) {
      const row = await byId.first({ id });
      return row ? toHandle(row) : null;
    },
    /** Repositories of some kinds for one container (a project and its wiki). */
    async findAll(kinds: readonly RepositoryKind[], containerId: number): Promise<RepositoryHandle[]> {
      const rows = await database.rows(database.from(RepositoryEntity).whereIn('containerType', kinds).where('containerId', containerId).orderBy('id'));
      return rows.map(toHandle);
    },
    async allIds(): Promise<number[]> {
      return (await database.rows(database.from(RepositoryEntity).orderBy('id'))).map((row) => row.id);
    },
    /** Container ids of one kind with a repository on a storage. */
    async containersOnStorage(kind: RepositoryKind, storage: string): Promise<number[]> {
      const rows = await database.rows(database.from(RepositoryEntity).where({ containerType: kind, storage }).orderBy('containerId'));
      return rows.map((row) => row.containerId);
    },

    /** Creates the repository (row and bare directory) unless it exists; returns it either way. */
    async ensure(key: RepositoryKey, options: { storage?: string; defaultBranch?: string } = {}): Promise<RepositoryHandle> {
      let existing = await find(key);
      if (!existing) {
        const storage = options.storage && storages.has(options.storage) ? options.storage : await service.pickStorage();
        const now = new Date();
        const row = {
          containerType: key.kind,
          containerId: key.containerId,
          storage,
          diskPath: diskPathFor(key),
          readOnly: false,
          createdAt: now,
          updatedAt: now,
        };
        // Two first writes at once: the unique index keeps one row, and both use it.
        await unlessTaken(database.insert(RepositoryEntity, row), () => null);
        existing = (await find(key))!;
      }
      await initBare(existing.gitDir, options.defaultBranch ?? 'main');
      return existing;
    },

    /** Deletes the row and the directory on disk. */
    async remove(key: RepositoryKey): Promise<void> {
      const existing = await find(key);
      if (!existing) return;
      await gits.close(existing.gitDir);
      await database.delete(RepositoryEntity, { id: existing.id });
      await rm(existing.gitDir, { recursive: true, force: true });
    },

    /** Sets or clears the read-only flag; only rows not already in that state change. Returns how many changed. */
    async setReadOnly(ids: number[], readOnly: boolean): Promise<number> {
      if (ids.length === 0) return 0;
      return database.update(RepositoryEntity, { id: { $in: ids }, readOnly: !readOnly }, { readOnly, updatedAt: new Date() });
    },
    /** Points repositories at another storage (their data must already be there). */
    async relocate(ids: number[], storage: string): Promise<void> {
      storagePath(storage);
      if (ids.length > 0) await database.update(RepositoryEntity, { id: { $in: ids } }, { storage, updatedAt: new Date() });
    },
    gitDirOn: (storage: string, diskPath: string) => join(storagePath(storage), diskPath),

    /**
     * Whether a repository at this disk path on any storage has no branch, read from
     * the filesystem only (cheap enough for every project in a list).
     */
    isEmptyOnDisk(diskPath: string, preferredStorage: string): boolean {
      // Where this path was last found, looked up before any path is joined: a list shows many projects.
      const found = foundAt.get(`${preferredStorage}\n${diskPath}`);
      const known = found === undefined ? undefined : emptyChecks.get(found);
      if (known && Date.now() - known.at < EMPTY_CHECK_TTL_MS) return known.empty;
      const candidates = [preferredStorage, ...[...storages.keys()].filter((name) => name !== preferredStorage)];
      for (const name of candidates) {
        const dir = storages.get(name);
        if (!dir) continue;
        const gitDir = join(dir, diskPath);
        const cached = emptyChecks.get(gitDir);
        if (cached && Date.now() - cached.at < EMPTY_CHECK_TTL_MS) return cached.empty;
        if (existsSync(join(gitDir, 'HEAD'))) {
          const empty = !hasBranchesOnDisk(gitDir);
          emptyChecks.set(gitDir, { empty, at: Date.now() });
          foundAt.set(`${preferredStorage}\n${diskPath}`, gitDir);
          return empty;
        }
      }
      return true;
    },

    /** Registers how containers of a kind (e.g. snippets) are found and shown. */
    describeContainers(kind: RepositoryKind, describer: ContainerDescriber) {
      describers.set(kind, describer);
    },
    containerDescriber: (kind: RepositoryKind): ContainerDescriber | undefined => describers.get(kind),

    onRefsUpdated(listener: RefsUpdatedListener) {
      listeners.push(listener);
    },
    notify,
    assertWritable,

    // Reads
    resolveCommit: (repository: RepositoryHandle, revision: string) => reader.resolveCommit(repository.gitDir, revision),
    branchHead: (repository: RepositoryHandle, branch: string) => reader.branchHead(repository.gitDir, branch),
    /** The heads of several branches of one repository at once: a map from each branch to its commit, or null. */
    branchHeads: (repository: RepositoryHandle, branches: Iterable<string>) => reader.branchHeads(repository.gitDir, branches),
    readCommit: (repository: RepositoryHandle, revision: string) => reader.readCommit(repository.gitDir, revision),
    listCommits: (repository: RepositoryHandle, options: reader.LogOptions) => reader.listCommits(repository.gitDir, options),
    countCommits: (repository: RepositoryHandle, options: reader.LogOptions) => reader.countCommits(repository.gitDir, options),
    commitStats: (repository: RepositoryHandle, sha: string) => reader.commitStats(repository.gitDir, sha),
    readCommitWithStats: (repository: RepositoryHandle, sha: string) => reader.readCommitWithStats(repository.gitDir, sha),
    listRefs: (repository: RepositoryHandle, kind: 'branches' | 'tags') => reader.listRefs(repository.gitDir, kind),
    readTree: (repository: RepositoryHandle, commit: string, path: string, recursive: boolean) => reader.readTree(repository.gitDir, commit, path, recursive),
    entryAt: (repository: RepositoryHandle, commit: string, path: string) => reader.entryAt(repository.gitDir, commit, path),
    readBlob: (repository: RepositoryHandle, commit: string, path: string) => reader.readBlob(repository.gitDir, commit, path),
    readBlobById: (repository: RepositoryHandle, sha: string) => reader.readBlobById(repository.gitDir, sha),
    readBlobsById: (repository: RepositoryHandle, ids: readonly string[]) => reader.readBlobsById(repository.gitDir, ids),
    lastCommitFor: (repository: RepositoryHandle, commit: string, path: string) => reader.lastCommitFor(repository.gitDir, commit, path),
    mergeBase: (repository: RepositoryHandle, a: string, b: string) => reader.mergeBase(repository.gitDir, a, b),
    diff: (repository: RepositoryHandle, from: string, to: string) => diffCommits(repository.gitDir, from, to),
    /** Whether `theirs` merges cleanly into `ours`, and the conflicting paths when not. */
    checkMerge: (repository: RepositoryHandle, ours: string, theirs: string) => checkMerge(repository.gitDir, ours, theirs),
    hasBranches: (repository: RepositoryHandle) => reader.hasBranches(repository.gitDir),
    headBranch: (repository: RepositoryHandle) => reader.headBranch(repository.gitDir),
    async setHeadBranch(repository: RepositoryHandle, branch: string) {
      await git(repository.gitDir, ['symbolic-ref', 'HEAD', `refs/heads/${branch}`]);
    },

    // Writes
    /**
     * One commit of file actions on a branch, created atomically. `becameDefault` tells
     * whether this first branch of an empty repository is now its default.
     */
    commitFiles: (repository: RepositoryHandle, request: CommitFilesRequest, pusher: Pusher | null) =>
      writing(repository, () => commitFilesInTurn(repository, request, pusher)),

    /** Sets tree entries (such as a submodule's gitlink) in a new commit on a branch. */
    commitTreeEdits: (
      repository: RepositoryHandle,
      options: { branch: string; expectedHead: string; edits: TreeEdit[]; message: string; author: GitIdentity; committer: GitIdentity },
      pusher: Pusher | null,
    ) =>
      writing(repository, () =>
        oneAtATime(repository, async () => {
          const { commit, tempRef } = await buildEditsCommit(gits.get(repository.gitDir), { parent: options.expectedHead, ...options });
          const update = { ref: `refs/heads/${options.branch}`, before: options.expectedHead, after: commit };
          await moveRefs(repository, [update], pusher, [tempRef]);
          return { commit, update };
        }),
      ),

    /**
     * Merges `source` into `branch` (a merge commit, or a fast-forward as `fastForward` allows), squashed first when asked;
     * fails when the branch moved from `targetHead`, on conflicts, or when a fast-forward is required but impossible.
     */
    mergeInto: (repository: RepositoryHandle, branch: string, request: MergeRequestToGit, pusher: Pusher | null) =>
      writing(repository, () =>
        oneAtATime(repository, async () => {
          const { commit, squashCommit } = await buildMerge(repository.gitDir, request);
          const update = { ref: `refs/heads/${branch}`, before: request.targetHead, after: commit };
          await moveRefs(repository, [update], pusher);
          return { commit, squashCommit, update };
        }),
      ),

    createBranch: (repository: RepositoryHandle, name: string, revision: string, pusher: Pusher | null): Promise<string> =>
      writing(repository, async () => {
        if (!isValidRefName(name)) throw new RepositoryError('invalid_branch', 'Branch name is invalid');
        if (await reader.branchHead(repository.gitDir, name)) throw new RepositoryError('branch_exists', 'Branch already exists');
        const target = await reader.resolveCommit(repository.gitDir, revision);
        if (!target) throw new RepositoryError('invalid_ref', `Failed to create branch '${name}': invalid reference name '${revision}'`);
        await moveRefs(repository, [{ ref: `refs/heads/${name}`, before: null, after: target }], pusher);
        return target;
      }),

    deleteBranch: (repository: RepositoryHandle, name: string, pusher: Pusher | null): Promise<void> =>
      writing(repository, async () => {
        const head = await reader.branchHead(repository.gitDir, name);
        if (!head) throw new RepositoryError('not_found', 'No such branch');
        if ((await reader.headBranch(repository.gitDir)) === name) {
          throw new RepositoryError('default_branch', 'The default branch of a project cannot be deleted.');
        }
        await moveRefs(repository, [{ ref: `refs/heads/${name}`, before: head, after: null }], pusher);
      }),

    /** A lightweight tag, or an annotated one when `message` is given. Returns the tag's commit. */
    createTag: (repository: RepositoryHandle, name: string, revision: string, message: string | null, tagger: Pusher): Promise<string> =>
      writing(repository, async () => {
        if (!isValidRefName(name)) throw new RepositoryError('invalid_tag', 'Tag name invalid');
        const target = await reader.resolveCommit(repository.gitDir, revision);
        if (!target) throw new RepositoryError('invalid_target', `Target ${revision} is invalid`);
        const existing = await git(repository.gitDir, ['rev-parse', '--verify', '--quiet', `refs/tags/${name}`], { okCodes: [1] });
        if (existing.code === 0) throw new RepositoryError('tag_exists', `Tag ${name} already exists`);
        let object = target;
        if (message) {
          const now = Math.floor(Date.now() / 1000);
          const tagText = `object ${target}\ntype commit\ntag ${name}\ntagger ${tagger.name} <${tagger.email}> ${now} +0000\n\n${message}\n`;
          object = await gitText(repository.gitDir, ['mktag'], { input: tagText });
        }
        await moveRefs(repository, [{ ref: `refs/tags/${name}`, before: null, after: object }], tagger);
        return target;
      }),

    deleteTag: (repository: RepositoryHandle, name: string, pusher: Pusher | null): Promise<void> =>
      writing(repository, async () => {
        const { stdout, code } = await git(repository.gitDir, ['rev-parse', '--verify', '--quiet', `refs/tags/${name}`], { okCodes: [1] });
        if (code !== 0) throw new RepositoryError('not_found', 'No such tag');
        await moveRefs(repository, [{ ref: `refs/tags/${name}`, before: stdout.toString('utf8').trim(), after: null }], pusher);
      }),

    /** Runs a write the caller performs itself (a git push), counted and refused when read-only. */
    writing,
    /** Resolves once no write to these repositories runs in this process (and their git processes have ended). */
    async drainWrites(ids: number[]): Promise<void> {
      for (const id of ids) {
        if (activeWrites.has(id)) await new Promise<void>((resolve) => drained.set(id, [...(drained.get(id) ?? []), resolve]));
        const repository = await service.findById(id);
        if (repository) await gits.close(repository.gitDir);
      }
    },
    /** Ends the repository's fast-import process between commits, so housekeeping may repack the packs it wrote. */
    releasePacks: (repository: RepositoryHandle) => oneAtATime(repository, () => gits.get(repository.gitDir).releasePacks()),
    /** The long-lived git processes of a repository (commit reads that need no program start). */
    processesOf: (repository: RepositoryHandle) => gits.get(repository.gitDir),
    /** Ends every long-lived git process (at shutdown). */
    closeProcesses: () => gits.closeAll(),
  };
  return service;
}

export type RepositoryService = ReturnType<typeof createRepositoryService>;
