/**
 * What git says about a merge request: its diff refs, its changes, its commits and whether it
 * merges. Open merge requests read their branches live; closed and merged ones keep the
 * shas stored when they stopped being open.
 */
import type { FileDiff, RepositoryHandle, RepositoryReads } from '@forgekit/plugin-repositories/contracts';
import type { MergeRequestRow } from '../entities/merge-request.js';

export interface DiffRefs {
  base_sha: string | null;
  head_sha: string | null;
  start_sha: string | null;
}

export type DetailedMergeStatus = 'mergeable' | 'conflict' | 'draft_status' | 'not_open' | 'need_rebase' | 'broken_status' | 'checking';

export interface MergeState {
  detailed: DetailedMergeStatus;
  /** GitLab's deprecated `merge_status`. */
  legacy: 'can_be_merged' | 'cannot_be_merged' | 'unchecked' | 'checking';
  hasConflicts: boolean;
}

export type MergeMethod = 'merge' | 'rebase_merge' | 'ff';

/** What the diff refs of a merge request depend on. */
type RefsOf = Pick<MergeRequestRow, 'state' | 'sourceBranch' | 'targetBranch' | 'headSha' | 'baseSha' | 'startSha'>;

/** How many answers per kind are remembered. */
const REMEMBERED = 2000;

/**
 * Answers about pairs of commits never change (commits are immutable), so they are kept by
 * repository and shas: a list page then runs git only for pairs it has not seen. Safe with
 * several processes, since nothing here depends on which process asked first.
 */
function remembered<T>(compute: (repository: RepositoryHandle, a: string, b: string) => Promise<T>) {
  const answers = new Map<string, Promise<T>>();
  return (repository: RepositoryHandle, a: string, b: string): Promise<T> => {
    const key = `${repository.id}:${a}:${b}`;
    let answer = answers.get(key);
    if (!answer) {
      answer = compute(repository, a, b);
      answers.set(key, answer);
      answer.catch(() => answers.delete(key));
      if (answers.size > REMEMBERED) answers.delete(answers.keys().next().value!);
    }
    return answer;
  };
}

export type BranchHead = (repository: RepositoryHandle, branch: string) => Promise<string | null>;

/** A merge request of a page, with its project's repository. */
export interface PageItem {
  repository: RepositoryHandle | null;
  mr: RefsOf;
}

export function createMergeRequestGit(repos: RepositoryReads) {
  const mergeBase = remembered((repository, a, b) => repos.mergeBase(repository, a, b));
  const checkMerge = remembered((repository, a, b) => repos.checkMerge(repository, a, b));
  /**
   * `branchHead` may be a page's shared reader, so that a target branch many merge requests
   * share is read once per page.
   */
  async function refs(repository: RepositoryHandle | null, mr: RefsOf, branchHead: BranchHead = repos.branchHead): Promise<DiffRefs> {
    if (mr.state !== 'opened' || !repository) return { base_sha: mr.baseSha ?? null, head_sha: mr.headSha ?? null, start_sha: mr.startSha ?? null };
    const [head, start] = await Promise.all([branchHead(repository, mr.sourceBranch), branchHead(repository, mr.targetBranch)]);
    const base = head && start ? await mergeBase(repository, start, head) : null;
    return { base_sha: base, head_sha: head ?? null, start_sha: start ?? null };
  }

  async function mergeState(repository: RepositoryHandle | null, mr: MergeRequestRow, diffRefs: DiffRefs, method: MergeMethod): Promise<MergeState> {
    if (mr.state !== 'opened') return { detailed: 'not_open', legacy: mr.state === 'merged' ? 'can_be_merged' : 'cannot_be_merged', hasConflicts: false };
    if (!repository || !diffRefs.head_sha || !diffRefs.start_sha) return { detailed: 'broken_status', legacy: 'cannot_be_merged', hasConflicts: false };
    const check = await checkMerge(repository, diffRefs.start_sha, diffRefs.head_sha);
    const hasConflicts = check.tree === null;
    const legacy = hasConflicts ? 'cannot_be_merged' : 'can_be_merged';
    if (mr.draft) return { detailed: 'draft_status', legacy, hasConflicts };
    if (hasConflicts) return { detailed: 'conflict', legacy, hasConflicts };
    if (method !== 'merge' && diffRefs.base_sha !== diffRefs.start_sha) return { detailed: 'need_rebase', legacy, hasConflicts };
    return { detailed: 'mergeable', legacy, hasConflicts };
  }

  return {
    refs,
    /**
     * `refs` for a page of merge requests: the branches its open ones name are read at once,
     * per repository (for this page only: branches move between requests).
     */
    async pageRefs(page: readonly PageItem[]) {
      const wanted = new Map<number, { repository: RepositoryHandle; branches: Set<string> }>();
      for (const { repository, mr } of page) {
        if (mr.state !== 'opened' || !repository) continue;
        let entry = wanted.get(repository.id);
        if (!entry) wanted.set(repository.id, (entry = { repository, branches: new Set() }));
        entry.branches.add(mr.sourceBranch).add(mr.targetBranch);
      }
      const heads = new Map<number, Map<string, string | null>>();
      await Promise.all([...wanted.values()].map(async ({ repository, branches }) => heads.set(repository.id, await repos.branchHeads(repository, branches))));
      const branchHead: BranchHead = async (repository, branch) => heads.get(repository.id)?.get(branch) ?? null;
      return (repository: RepositoryHandle | null, mr: RefsOf) => refs(repository, mr, branchHead);
    },
    mergeState,

    async diffs(repository: RepositoryHandle | null, diffRefs: DiffRefs): Promise<FileDiff[]> {
      if (!repository || !diffRefs.base_sha || !diffRefs.head_sha) return [];
      return repos.diff(repository, diffRefs.base_sha, diffRefs.head_sha);
    },

    /** The merge request's commits, newest first. */
    async commits(repository: RepositoryHandle | null, diffRefs: DiffRefs) {
      if (!repository || !diffRefs.head_sha) return [];
      return repos.listCommits(repository, { revisions: [diffRefs.head_sha], exclude: diffRefs.base_sha ? [diffRefs.base_sha] : [] });
    },
  };
}

export type MergeRequestGit = ReturnType<typeof createMergeRequestGit>;
