/**
 * Merges without a working tree. `git merge-tree --write-tree` decides whether two commits
 * merge cleanly and writes the merged tree; `git commit-tree` turns it into a merge commit.
 * The caller moves the branch with compare-and-swap, so a concurrent push fails the merge.
 */
import { git, gitText } from './git-runner.js';
import type { GitIdentity } from './fast-import.js';
import { mergeBase } from './repo-reader.js';
import { RepositoryError } from './repository-error.js';

export interface MergeCheck {
  /** The merged tree when the merge is clean, else null. */
  tree: string | null;
  /** Paths that conflict. */
  conflicts: string[];
}

export interface MergeRequestToGit {
  /** The target branch's head the merge starts from. */
  targetHead: string;
  /** The commit to bring in. */
  source: string;
  /** `never`: always a merge commit; `only`: fast-forward or refuse; `allowed`: fast-forward when possible. */
  fastForward: 'never' | 'only' | 'allowed';
  message: string;
  author: GitIdentity;
  committer: GitIdentity;
  /** Squash the source's changes into one commit on top of the target head first, with this message. */
  squashMessage?: string | null;
}

export interface MergeResult {
  /** What the target branch points at now. */
  commit: string;
  squashCommit: string | null;
}

export async function checkMerge(gitDir: string, ours: string, theirs: string): Promise<MergeCheck> {
  const { stdout, code } = await git(gitDir, ['merge-tree', '--write-tree', '--name-only', '--no-messages', '-z', ours, theirs], { okCodes: [1] });
  const [tree, ...rest] = stdout.toString('utf8').split('\0');
  if (code === 0) return { tree: tree!.trim(), conflicts: [] };
  const end = rest.indexOf('');
  return { tree: null, conflicts: [...new Set(end === -1 ? rest : rest.slice(0, end))] };
}

/** Whether `ancestor` is reachable from `descendant` (a fast-forward from one to the other). */
export async function isAncestor(gitDir: string, ancestor: string, descendant: string): Promise<boolean> {
  return (await mergeBase(gitDir, ancestor, descendant)) === ancestor;
}

const identityEnv = (request: MergeRequestToGit) => ({
  GIT_AUTHOR_NAME: request.author.name,
  GIT_AUTHOR_EMAIL: request.author.email,
  GIT_COMMITTER_NAME: request.committer.name,
  GIT_COMMITTER_EMAIL: request.committer.email,
});

/** The commits the target branch should point at after the merge (written, but no ref moved yet). */
export async function buildMerge(gitDir: string, request: MergeRequestToGit): Promise<MergeResult> {
  let source = request.source;
  let squashCommit: string | null = null;
  if (request.squashMessage != null) {
    const { tree } = await checkMerge(gitDir, request.targetHead, request.source);
    if (!tree) throw new RepositoryError('merge_conflict', 'Merge request has conflicts');
    squashCommit = await gitText(gitDir, ['commit-tree', tree, '-p', request.targetHead, '-F', '-'], {
      input: request.squashMessage,
      env: identityEnv(request),
    });
    source = squashCommit;
  }
  const fastForward = request.fastForward !== 'never' && (await isAncestor(gitDir, request.targetHead, source));
  if (fastForward) return { commit: source, squashCommit };
  if (request.fastForward === 'only') throw new RepositoryError('not_fast_forward', 'Merge request is not fast-forwardable');
  const { tree } = await checkMerge(gitDir, request.targetHead, source);
  if (!tree) throw new RepositoryError('merge_conflict', 'Merge request has conflicts');
  const commit = await gitText(gitDir, ['commit-tree', tree, '-p', request.targetHead, '-p', source, '-F', '-'], {
    input: request.message,
    env: identityEnv(request),
  });
  return { commit, squashCommit };
}
