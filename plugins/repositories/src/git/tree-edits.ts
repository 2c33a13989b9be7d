/** Commits that set individual tree entries (such as a submodule's gitlink) on top of a parent. */
import type { GitIdentity } from './fast-import.js';
import type { RepositoryGit } from './repository-git.js';

export interface TreeEdit {
  path: string;
  /** null removes the entry. */
  mode: string | null;
  sha?: string;
}

export async function buildEditsCommit(
  repositoryGit: RepositoryGit,
  options: { parent: string; edits: TreeEdit[]; message: string; author: GitIdentity; committer: GitIdentity },
) {
  return repositoryGit.writeCommit({
    parent: options.parent,
    commands: options.edits.map((edit) =>
      edit.mode ? { op: 'set' as const, path: edit.path, mode: edit.mode, sha: edit.sha } : { op: 'delete' as const, path: edit.path },
    ),
    message: options.message,
    author: options.author,
    committer: options.committer,
  });
}
