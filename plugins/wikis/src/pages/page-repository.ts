/**
 * A project's wiki repository (`<project>.wiki.git`, kind `wiki`), reached through the
 * repositories plugin: pages are read from the default branch (or a given commit) and
 * every change is one commit authored by the caller. The branch head is read from the ref
 * files on each request (no process); a commit's page list is read with git once and kept
 * (page-cache.ts), so a read of an unchanged wiki spawns nothing.
 */
import type { Principal } from '@forgekit/kernel';
import type { Project } from '@forgekit/plugin-core/contracts';
import { isSafeRevision, type FileAction, type RepositoryHandle, type RepositoryReads, type RepositoryWrites } from '@forgekit/plugin-repositories/contracts';
import type { PageCache } from './page-cache.js';
import { pageFileOf, type PageFile } from './page-paths.js';

/** A page file found at a commit. */
export interface StoredPage extends PageFile {
  blobId: string;
}

/** Where a wiki's pages are read: its repository and a commit (null for an empty wiki). */
export interface WikiSnapshot {
  repository: RepositoryHandle | null;
  branch: string;
  commit: string | null;
}

const FALLBACK_BRANCH = 'main';

/** No empty, `.` or `..` part: a slug that cannot name a file inside the repository. */
const isPlainPath = (slug: string) => slug.split('/').every((part) => part !== '' && part !== '.' && part !== '..');

const isFullSha = (version: string) => /^[0-9a-f]{40}$/.test(version);

const bySlug = (a: StoredPage, b: StoredPage) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);

export function createPageRepository(reads: RepositoryReads, writes: RepositoryWrites, cache: PageCache) {
  const keyOf = (project: Project) => ({ kind: 'wiki' as const, containerId: project.id });

  async function snapshotOf(repository: RepositoryHandle | null): Promise<WikiSnapshot> {
    if (!repository) return { repository, branch: FALLBACK_BRANCH, commit: null };
    const branch = (await reads.headBranch(repository)) ?? FALLBACK_BRANCH;
    return { repository, branch, commit: await reads.branchHead(repository, branch) };
  }

  /** Every page of the wiki at the snapshot, by slug (kept per commit: the list must not be changed). */
  async function pagesAt(snapshot: WikiSnapshot): Promise<readonly StoredPage[]> {
    const { repository, commit } = snapshot;
    if (!repository || !commit) return [];
    return cache.pages(repository.gitDir, commit, async () => {
      const entries = (await reads.readTree(repository, commit, '', true)) ?? [];
      const pages: StoredPage[] = [];
      for (const entry of entries) {
        const file = entry.type === 'blob' ? pageFileOf(entry.path) : null;
        if (file) pages.push({ ...file, blobId: entry.id });
      }
      // A stable sort: of two files with one slug, the first in the tree wins, as git lists them.
      return pages.sort(bySlug);
    });
  }

  return {
    /** The wiki's default branch head, or its state at `version` (null: no such commit). */
    async snapshot(project: Project, version?: string | null): Promise<WikiSnapshot | null> {
      const current = await snapshotOf(await reads.find(keyOf(project)));
      if (version === undefined || version === null) return current;
      if (!current.repository || !isSafeRevision(version)) return null;
      // A repository made anew in the same place gets a new id: its commits are not the old ones'.
      const where = `${current.repository.id}:${current.repository.gitDir}`;
      let commit = isFullSha(version) ? cache.version(where, version) : undefined;
      if (!commit) {
        commit = (await reads.resolveCommit(current.repository, version)) ?? undefined;
        if (commit && isFullSha(version)) cache.keepVersion(where, version, commit);
      }
      return commit ? { ...current, commit } : null;
    },

    /** The wiki for a write, created on first use. */
    async forWrite(project: Project): Promise<WikiSnapshot & { repository: RepositoryHandle }> {
      const repository = await writes.ensure(keyOf(project), { storage: project.repositoryStorage, defaultBranch: project.defaultBranch ?? FALLBACK_BRANCH });
      return (await snapshotOf(repository)) as WikiSnapshot & { repository: RepositoryHandle };
    },

    /** Every page of the wiki at the snapshot, by slug (kept per commit: the list must not be changed). */
    pages: pagesAt,

    /** The page with this slug at the snapshot, whatever its format, or null. */
    async page(snapshot: WikiSnapshot, slug: string): Promise<StoredPage | null> {
      if (!isPlainPath(slug)) return null;
      return (await pagesAt(snapshot)).find((page) => page.slug === slug) ?? null;
    },

    /** The pages' contents, read in one go, in their order. */
    async contents(snapshot: WikiSnapshot, pages: readonly StoredPage[]): Promise<Buffer[]> {
      if (!snapshot.repository || pages.length === 0) return pages.map(() => Buffer.alloc(0));
      const blobs = await reads.readBlobsById(
        snapshot.repository,
        pages.map((page) => page.blobId),
      );
      return pages.map((page) => blobs.get(page.blobId)?.data ?? Buffer.alloc(0));
    },

    /** One commit of file actions by the caller on `branch` (the default unless given), from the snapshot's head. */
    async commit(
      snapshot: WikiSnapshot & { repository: RepositoryHandle },
      user: Principal,
      change: { message: string; actions: FileAction[]; branch?: string },
    ): Promise<string> {
      const pusher = await writes.pusher(user);
      const branch = change.branch ?? snapshot.branch;
      const head = branch === snapshot.branch ? snapshot.commit : await reads.branchHead(snapshot.repository, branch);
      // A new branch starts from the default branch; an existing one must not have moved meanwhile.
      const startBranch = !head && branch !== snapshot.branch && snapshot.commit ? snapshot.branch : null;
      const { commit } = await writes.commitFiles(
        snapshot.repository,
        { branch, expectedHead: head, startBranch, message: change.message, author: pusher, committer: pusher, actions: change.actions },
        pusher,
      );
      return commit;
    },
  };
}

export type PageRepository = ReturnType<typeof createPageRepository>;
