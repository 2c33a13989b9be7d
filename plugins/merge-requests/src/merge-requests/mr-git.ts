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
 * several processes, since nothing here depends on which process asked first. `known`
 * answers a settled answer without waiting, so that a page of merge requests whose pairs
 * were all seen is answered in one pass, not a chain of promises per merge request.
 */
function remembered<T>(compute: (repository: RepositoryHandle, a: string, b: string) => Promise<T>) {
  const answers = new Map<string, Promise<T>>();
  const settled = new Map<string, T>();
  const keyOf = (repository: RepositoryHandle, a: string, b: string) => `${repository.id}:${a}:${b}`;
  const ask = (repository: RepositoryHandle, a: string, b: string): Promise<T> => {
    const key = keyOf(repository, a, b);
    let answer = answers.get(key);
    if (!answer) {
      const asked = compute(repository, a, b);
      answer = asked;
      answers.set(key, asked);
      asked.then(
        (value) => {
          if (answers.get(key) === asked) settled.set(key, value);
        },
        () => answers.delete(key),
      );
      if (answers.size > REMEMBERED) {
        const oldest = answers.keys().next().value!;
        answers.delete(oldest);
        settled.delete(oldest);
      }
    }
    return answer;
  };
  /** The settled answer under a key `keyOf` made, or undefined while there is none. */
  const known = (key: string): T | undefined => settled.get(key);
  return Object.assign(ask, { known, keyOf });
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
  /** `branchHead` may be a page's shared reader, so that the branches of a page are read at once. */
  /** The shas kept when the merge request stopped being open. */
  const storedRefs = (mr: RefsOf): DiffRefs => ({ base_sha: mr.baseSha ?? null, head_sha: mr.headSha ?? null, start_sha: mr.startSha ?? null });

  async function refs(repository: RepositoryHandle | null, mr: RefsOf, branchHead: BranchHead = repos.branchHead): Promise<DiffRefs> {
    if (mr.state !== 'opened' || !repository) return storedRefs(mr);
    const [head, start] = await Promise.all([branchHead(repository, mr.sourceBranch), branchHead(repository, mr.targetBranch)]);
    const base = head && start ? await mergeBase(repository, start, head) : null;
    return { base_sha: base, head_sha: head ?? null, start_sha: start ?? null };
  }

  const notOpen = (mr: Pick<MergeRequestRow, 'state'>): MergeState => ({
    detailed: 'not_open',
    legacy: mr.state === 'merged' ? 'can_be_merged' : 'cannot_be_merged',
    hasConflicts: false,
  });
  const BROKEN: MergeState = { detailed: 'broken_status', legacy: 'cannot_be_merged', hasConflicts: false };

  /** The state of an open merge request whose branches both exist, from git's merge check of them. */
  function openState(check: { tree: string | null }, mr: MergeRequestRow, diffRefs: DiffRefs, method: MergeMethod): MergeState {
    const hasConflicts = check.tree === null;
    const legacy = hasConflicts ? 'cannot_be_merged' : 'can_be_merged';
    if (mr.draft) return { detailed: 'draft_status', legacy, hasConflicts };
    if (hasConflicts) return { detailed: 'conflict', legacy, hasConflicts };
    if (method !== 'merge' && diffRefs.base_sha !== diffRefs.start_sha) return { detailed: 'need_rebase', legacy, hasConflicts };
    return { detailed: 'mergeable', legacy, hasConflicts };
  }

  async function mergeState(repository: RepositoryHandle | null, mr: MergeRequestRow, diffRefs: DiffRefs, method: MergeMethod): Promise<MergeState> {
    if (mr.state !== 'opened') return notOpen(mr);
    if (!repository || !diffRefs.head_sha || !diffRefs.start_sha) return BROKEN;
    return openState(await checkMerge(repository, diffRefs.start_sha, diffRefs.head_sha), mr, diffRefs, method);
  }

  /** The branches a page's open merge requests name, read at once per repository (for this page only: branches move between requests). */
  async function headsOf(page: readonly PageItem[]): Promise<(repository: RepositoryHandle, branch: string) => string | null> {
    const wanted = new Map<number, { repository: RepositoryHandle; branches: Set<string> }>();
    for (const { repository, mr } of page) {
      if (mr.state !== 'opened' || !repository) continue;
      let entry = wanted.get(repository.id);
      if (!entry) wanted.set(repository.id, (entry = { repository, branches: new Set() }));
      entry.branches.add(mr.sourceBranch).add(mr.targetBranch);
    }
    const heads = new Map<number, Map<string, string | null>>();
    await Promise.all([...wanted.values()].map(async ({ repository, branches }) => heads.set(repository.id, await repos.branchHeads(repository, branches))));
    return (repository, branch) => heads.get(repository.id)?.get(branch) ?? null;
  }

  /** `refs` and `mergeState` of an open merge request from settled answers alone, or undefined when git has yet to answer. */
  function openStateNow(repository: RepositoryHandle, mr: MergeRequestRow, method: MergeMethod, head: string | null, start: string | null) {
    if (!head || !start) return { refs: { base_sha: null, head_sha: head, start_sha: start }, state: BROKEN };
    // Both answers are kept under the same key.
    const key = mergeBase.keyOf(repository, start, head);
    const base = mergeBase.known(key);
    const check = checkMerge.known(key);
    if (base === undefined || check === undefined) return undefined;
    const refs: DiffRefs = { base_sha: base, head_sha: head, start_sha: start };
    return { refs, state: openState(check, mr, refs, method) };
  }

  return {
    refs,
    /**
     * `refs` and `mergeState` of each merge request of a page, as `refs` and `mergeState` answer
     * them: the page's branches are read at once, and pairs of commits git answered before are
     * not waited for.
     */
    async pageStates(page: readonly (PageItem & { mr: MergeRequestRow; method: MergeMethod })[]): Promise<{ refs: DiffRefs; state: MergeState }[]> {
      const headOf = await headsOf(page);
      const branchHead: BranchHead = async (repository, branch) => headOf(repository, branch);

      const states: ({ refs: DiffRefs; state: MergeState } | Promise<{ refs: DiffRefs; state: MergeState }>)[] = page.map(({ repository, mr, method }) => {
        if (mr.state !== 'opened') return { refs: storedRefs(mr), state: notOpen(mr) };
        if (!repository) return { refs: storedRefs(mr), state: BROKEN };
        const now = openStateNow(repository, mr, method, headOf(repository, mr.sourceBranch), headOf(repository, mr.targetBranch));
        if (now) return now;
        return refs(repository, mr, branchHead).then(async (found) => ({ refs: found, state: await mergeState(repository, mr, found, method) }));
      });
      return states.every((state) => !(state instanceof Promise)) ? (states as { refs: DiffRefs; state: MergeState }[]) : Promise.all(states);
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
