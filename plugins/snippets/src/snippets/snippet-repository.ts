/**
 * A snippet's files, kept in its own bare git repository through the repositories
 * contract: every change is a commit on the default branch, and reads come from git.
 */
import type { FileAction, GitIdentity, RepositoryReads, RepositoryWrites } from '@forgekit/plugin-repositories/contracts';

export const SNIPPET_BRANCH = 'main';

export interface SnippetFiles {
  /** The branch the files were read from (the raw URLs name it). */
  ref: string;
  /** Paths of the files, in git's order; the first is the snippet's `file_name`. */
  paths: string[];
}

export type FileRead = { found: 'ref' } | { found: 'file' } | { found: 'blob'; path: string; data: Buffer };

export function createSnippetRepository(reads: RepositoryReads, writes: RepositoryWrites) {
  const keyOf = (snippetId: number) => ({ kind: 'snippet' as const, containerId: snippetId });

  async function files(snippetId: number): Promise<SnippetFiles> {
    const repository = await reads.find(keyOf(snippetId));
    if (!repository) return { ref: SNIPPET_BRANCH, paths: [] };
    const ref = (await reads.headBranch(repository)) ?? SNIPPET_BRANCH;
    const head = await reads.resolveCommit(repository, ref);
    if (!head) return { ref, paths: [] };
    const entries = (await reads.readTree(repository, head, '', true)) ?? [];
    return { ref, paths: entries.filter((entry) => entry.type === 'blob').map((entry) => entry.path) };
  }

  /** A file of the snippet at a branch, tag or commit. */
  async function read(snippetId: number, ref: string, path: string): Promise<FileRead> {
    const repository = await reads.find(keyOf(snippetId));
    const commit = repository ? await reads.resolveCommit(repository, ref) : null;
    if (!repository || !commit) return { found: 'ref' };
    const blob = await reads.readBlob(repository, commit, path);
    return blob ? { found: 'blob', path, data: blob.data } : { found: 'file' };
  }

  return {
    files,
    read,

    /** Commits file actions on the default branch, creating the repository on its first commit. */
    async commit(snippetId: number, actions: FileAction[], author: GitIdentity, message: string, storage?: string): Promise<void> {
      const repository = await writes.ensure(keyOf(snippetId), { storage, defaultBranch: SNIPPET_BRANCH });
      const branch = (await reads.headBranch(repository)) ?? SNIPPET_BRANCH;
      const expectedHead = await reads.resolveCommit(repository, branch);
      await writes.commitFiles(repository, { branch, expectedHead, message, author, committer: author, actions }, null);
    },

    /** The first file at the head of the default branch, or null for an empty repository. */
    async first(snippetId: number): Promise<{ path: string; data: Buffer } | null> {
      const { ref, paths } = await files(snippetId);
      if (paths.length === 0) return null;
      const file = await read(snippetId, ref, paths[0]!);
      return file.found === 'blob' ? file : null;
    },

    remove: (snippetId: number) => writes.remove(keyOf(snippetId)),
  };
}

export type SnippetRepository = ReturnType<typeof createSnippetRepository>;
