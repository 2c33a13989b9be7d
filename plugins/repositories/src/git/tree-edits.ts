/** Commits that set individual tree entries (such as a submodule's gitlink) on top of a parent. */
import { fastImportCommit, type GitIdentity } from './fast-import.js';

export interface TreeEdit {
  path: string;
  /** null removes the entry. */
  mode: string | null;
  sha?: string;
}

export async function buildEditsCommit(
  gitDir: string,
  options: { parent: string; edits: TreeEdit[]; message: string; author: GitIdentity; committer: GitIdentity },
) {
  return fastImportCommit(gitDir, {
    parent: options.parent,
    commands: options.edits.map((edit) =>
      edit.mode ? { op: 'set' as const, path: edit.path, mode: edit.mode, sha: edit.sha } : { op: 'delete' as const, path: edit.path },
    ),
    message: options.message,
    author: options.author,
    committer: options.committer,
  });
}
