/**
 * Long-lived git processes per repository, so that a commit through the API starts no
 * program: starting git costs more than the work it does for one small commit (Gitaly
 * keeps per-repository git processes for the same reason). git has no library form that
 * Node can load, so the processes are driven over their documented stdin protocols:
 *
 * - `git fast-import` writes commits and reads the tree entries they touch (`ls`), each
 *   commit made durable with `checkpoint` before its answer;
 * - `git update-ref --stdin` moves refs in `start`/`prepare`/`commit` transactions with
 *   compare-and-swap (a failed transaction ends the process; the next one starts anew);
 * - `git diff-tree --stdin` shows commits with their line stats, and their changed paths.
 *
 * Processes are started on first use and end after a while unused; fast-import is
 * replaced after a number of commits so its object table stays small and its packs (one
 * per commit) are not kept from housekeeping for long.
 */
import { randomBytes } from 'node:crypto';
import { commitCommands, DURABLE_REFS, lsCommand, refUpdateLines, type NewCommit, type RefUpdate } from './fast-import.js';
import { GitProcess, lines, upTo } from './git-process.js';
import { COMMIT_WITH_STATS_FORMAT, parseCommitWithStats, parseChangedPaths, type CommitInfo, type ChangedPaths, type CommitStats } from './repo-reader.js';

/** A tree entry fast-import's `ls` found. */
export interface LsEntry {
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
}

/** Commits one fast-import process writes before it is replaced. */
const COMMITS_PER_IMPORTER = 100;
const ZERO = '0'.repeat(40);
/** Commit answers of `showCommit` kept per repository: enough for a group of commits written together. */
const RECENTLY_SHOWN = 64;

const LS_ANSWER = /^(\d+) (blob|tree|commit) ([0-9a-f]+)\t/;

interface Importer {
  process: GitProcess;
  tempRef: string;
  commits: number;
  /** Commits written since the last checkpoint: until it, they are known to this process alone, by their marks. */
  unsynced: number;
}

/** A commit fast-import wrote: its id, the temporary ref it sits on, and its mark in that process. */
export interface WrittenCommit {
  commit: string;
  tempRef: string;
  mark: string;
}

export class RepositoryGit {
  lastUsed = Date.now();
  private importer: Importer | undefined;
  private refs: GitProcess | undefined;
  private refsQueue: Promise<unknown> = Promise.resolve();
  private shows: GitProcess | undefined;
  private paths: GitProcess | undefined;
  private readonly recentlyShown = new Map<string, string>();
  private readonly nonce = randomBytes(6).toString('hex');
  private sequence = 0;
  /** Set by `close`: a caller still holding this object gets processes that end after answering. */
  private closed = false;

  constructor(readonly gitDir: string) {}

  /** Whether any process awaits an answer. */
  get busy(): boolean {
    return [this.importer?.process, this.refs, this.shows, this.paths].some((process) => process?.busy);
  }

  private fastImport(): Importer {
    const current = this.importer;
    // Commits awaiting their checkpoint are named by marks that only this process knows.
    if (current?.process.usable && (current.commits < COMMITS_PER_IMPORTER || current.unsynced > 0)) return current;
    if (current) void this.retire(current);
    const tempRef = `refs/forgekit/tmp/${randomBytes(8).toString('hex')}`;
    // --force: the temporary ref is reused for every commit, whatever it held before.
    // fastimport.unpackLimit=0: each commit's checkpoint keeps its small pack as it is. By
    // default (100) fast-import loosens packs that small by starting `git unpack-objects`
    // for every checkpoint, a process per commit.
    this.importer = {
      process: new GitProcess(this.gitDir, ['-c', 'fastimport.unpackLimit=0', 'fast-import', '--quiet', '--force', '--date-format=raw']),
      tempRef,
      commits: 0,
      unsynced: 0,
    };
    return this.importer;
  }

  /**
   * Ends the fast-import process (the next commit starts another). fast-import marks the
   * packs it writes `.keep` while it runs, so a repack leaves them alone; once it has ended
   * they can be packed together.
   */
  async releasePacks(): Promise<void> {
    const importer = this.importer;
    if (importer && importer.unsynced > 0) {
      // Commits in flight refer to it by marks: it is replaced once they are durable.
      importer.commits = COMMITS_PER_IMPORTER;
      return;
    }
    this.importer = undefined;
    if (importer) await this.retire(importer);
  }

  /** Ends an importer, deleting its temporary ref rather than leaving fast-import to write it back. */
  private retire(importer: { process: GitProcess; tempRef: string }) {
    return importer.process.finish(`reset ${importer.tempRef}\nfrom ${ZERO}\n\ndone\n`);
  }

  /** The entries at exactly these paths in a tree-ish (directories included, not descended). */
  async entriesAt(treeish: string, paths: readonly string[]): Promise<Map<string, LsEntry>> {
    this.lastUsed = Date.now();
    const entries = new Map<string, LsEntry>();
    if (paths.length === 0) return entries;
    const answers = await this.ended(this.fastImport().process.request(paths.map((path) => lsCommand(treeish, path)).join(''), lines(paths.length)));
    answers.forEach((answer, i) => {
      const match = LS_ANSWER.exec(answer);
      if (match) entries.set(paths[i]!, { mode: match[1]!, type: match[2] as LsEntry['type'], sha: match[3]! });
    });
    return entries;
  }

  /**
   * Writes a commit on this process's temporary ref; returns its id, the ref and its mark.
   * Durable on return unless `durable` is false: then it is known to fast-import alone (its
   * mark can be the parent of the next commit) until `checkpoint`, which must follow.
   */
  async writeCommit(commit: NewCommit, { durable = true }: { durable?: boolean } = {}): Promise<WrittenCommit> {
    this.lastUsed = Date.now();
    const importer = this.fastImport();
    importer.commits++;
    importer.unsynced++;
    const mark = `:${importer.commits}`;
    const marker = `${this.nonce}-${++this.sequence}`;
    const sync = durable ? `checkpoint\nprogress ${marker}\n` : '';
    const input = Buffer.concat([...commitCommands(commit, importer.tempRef, mark), Buffer.from(`get-mark ${mark}\n${sync}`)]);
    const [id, progress] = await this.ended(importer.process.request(input, lines(durable ? 2 : 1)));
    if (!/^[0-9a-f]{40}$/.test(id!) || (durable && progress !== `progress ${marker}`)) {
      throw new Error(`git fast-import answered '${id}' '${progress}' for a commit`);
    }
    if (durable) importer.unsynced = 0;
    return { commit: id!, tempRef: importer.tempRef, mark };
  }

  /** Makes every commit written so far durable (their packs and indexes synced to disk). */
  async checkpoint(): Promise<void> {
    const importer = this.fastImport();
    const marker = `${this.nonce}-${++this.sequence}`;
    const [progress] = await this.ended(importer.process.request(`checkpoint\nprogress ${marker}\n`, lines(1)));
    if (progress !== `progress ${marker}`) throw new Error(`git fast-import answered '${progress}' for a checkpoint`);
    importer.unsynced = 0;
  }

  /**
   * Applies ref updates in one transaction, each only if the ref still has its expected
   * target; `drop` refs are deleted in the same transaction. False when the transaction
   * failed (someone else moved a ref first).
   */
  updateRefs(updates: RefUpdate[], drop: readonly string[] = []): Promise<boolean> {
    this.lastUsed = Date.now();
    // One transaction at a time: a failed one ends the process, which must not fail the next.
    const run = this.refsQueue.then(async () => {
      if (!this.refs?.usable) this.refs = new GitProcess(this.gitDir, [...DURABLE_REFS, 'update-ref', '--stdin']);
      const input = `start\n${refUpdateLines(updates, drop).join('\n')}\nprepare\ncommit\n`;
      try {
        const answers = await this.ended(this.refs.request(input, lines(3)));
        return answers[2] === 'commit: ok';
      } catch {
        return false;
      }
    });
    this.refsQueue = run;
    return run;
  }

  /** A commit with its line stats against its first parent, as `git show --numstat -M` gives them; null if git knows no such commit. */
  async showCommit(sha: string): Promise<{ commit: CommitInfo; stats: CommitStats } | null> {
    this.lastUsed = Date.now();
    const cached = this.recentlyShown.get(sha);
    if (cached) return parseCommitWithStats(cached);
    if (!this.shows?.usable) {
      this.shows = new GitProcess(this.gitDir, [
        'diff-tree',
        '--stdin',
        '--always',
        '--numstat',
        '-M',
        '-r',
        '--root',
        '-m',
        '--first-parent',
        COMMIT_WITH_STATS_FORMAT,
      ]);
    }
    const text = (await this.ask(this.shows, sha)).toString('utf8');
    const shown = parseCommitWithStats(text);
    if (shown) this.rememberShown(sha, text);
    return shown;
  }

  /**
   * A commit's answer does not change, and a commit written through the API is shown twice:
   * for the response and for its push event. The last few answers are kept (as text, so each
   * caller gets its own objects).
   */
  private rememberShown(sha: string, text: string) {
    this.recentlyShown.delete(sha);
    this.recentlyShown.set(sha, text);
    if (this.recentlyShown.size > RECENTLY_SHOWN) this.recentlyShown.delete(this.recentlyShown.keys().next().value!);
  }

  /** Paths a commit added, changed and removed against its first parent. */
  async changedPaths(sha: string): Promise<ChangedPaths> {
    this.lastUsed = Date.now();
    if (!this.paths?.usable) {
      this.paths = new GitProcess(this.gitDir, [
        'diff-tree',
        '--stdin',
        '-z',
        '--name-status',
        '-r',
        '--no-commit-id',
        '--root',
        '-m',
        '--first-parent',
        '--no-renames',
      ]);
    }
    return parseChangedPaths(await this.ask(this.paths, sha));
  }

  /**
   * diff-tree answers a commit id and echoes (and flushes) any line that is not one: the
   * echoed marker ends each answer.
   */
  private ask(process: GitProcess, sha: string): Promise<Buffer> {
    if (!/^[0-9a-f]{40}$/.test(sha)) return Promise.resolve(Buffer.alloc(0));
    const marker = `:end ${this.nonce}-${++this.sequence}`;
    return this.ended(process.request(`${sha}\n${marker}\n`, upTo(marker)));
  }

  /** Once closed, processes started for a late caller end as soon as they have been asked. */
  private ended<T>(answer: Promise<T>): Promise<T> {
    if (this.closed) void this.end();
    return answer;
  }

  /** Ends every process (each finishes what it was asked first). */
  close(): Promise<void> {
    this.closed = true;
    return this.end();
  }

  private async end(): Promise<void> {
    const importer = this.importer;
    this.importer = undefined;
    const processes = [this.refs, this.shows, this.paths];
    this.refs = this.shows = this.paths = undefined;
    await Promise.all([importer && this.retire(importer), ...processes.map((process) => process?.finish())]);
  }
}

/** The processes of each repository in use, ended when unused for `idleMs`; at most `max` repositories keep theirs. */
export function createRepositoryGits({ idleMs = 10_000, max = 32 }: { idleMs?: number; max?: number } = {}) {
  const open = new Map<string, RepositoryGit>();
  let sweeper: NodeJS.Timeout | undefined;

  function sweep() {
    const now = Date.now();
    for (const [gitDir, git] of open) {
      if (!git.busy && now - git.lastUsed >= idleMs) {
        open.delete(gitDir);
        void git.close();
      }
    }
    if (open.size === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  }

  /** Past `max`, ends the least recently used repositories' processes that have been idle a moment. */
  function trim() {
    if (open.size <= max) return;
    const idle = [...open.values()].filter((git) => !git.busy && Date.now() - git.lastUsed > 1000).sort((a, b) => a.lastUsed - b.lastUsed);
    for (const git of idle.slice(0, open.size - max)) {
      open.delete(git.gitDir);
      void git.close();
    }
  }

  return {
    /** The repository's processes (started as they are first needed). */
    get(gitDir: string): RepositoryGit {
      let git = open.get(gitDir);
      if (!git) {
        git = new RepositoryGit(gitDir);
        open.set(gitDir, git);
        trim();
      }
      git.lastUsed = Date.now();
      if (!sweeper) {
        sweeper = setInterval(sweep, Math.max(idleMs / 2, 100));
        sweeper.unref();
      }
      return git;
    },
    /** Ends a repository's processes (before it is removed or moved). */
    async close(gitDir: string): Promise<void> {
      const git = open.get(gitDir);
      open.delete(gitDir);
      await git?.close();
    },
    async closeAll(): Promise<void> {
      const all = [...open.values()];
      open.clear();
      await Promise.all(all.map((git) => git.close()));
    },
  };
}

export type RepositoryGits = ReturnType<typeof createRepositoryGits>;
