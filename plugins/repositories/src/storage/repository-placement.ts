/**
 * Where repositories live, for storage moves: copy a repository to another storage and
 * prove the copy, switch its record there, and remove what is left behind. Moves pause
 * writes with the read-only flag and wait out the writes already running.
 */
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { RepositoryHandle, RepositoryService } from './repository-service.js';
import { copyRepository, refsSnapshot, stagingDir } from './repository-copy.js';

export function createRepositoryPlacement(repos: RepositoryService) {
  const dirOn = (repository: RepositoryHandle, storage: string) => repos.gitDirOn(storage, repository.diskPath);

  /** Whether the repository's data already sits where it would on `storage` (two names for one directory). */
  const isOn = (repository: RepositoryHandle, storage: string) => resolve(repository.gitDir) === resolve(dirOn(repository, storage));

  return {
    /** The configured storage names. */
    storageNames: [...repos.storages.keys()] as readonly string[],
    hasStorage: (name: string) => repos.storages.has(name),
    pickStorage: repos.pickStorage,
    find: repos.find,
    findAll: repos.findAll,
    ensure: repos.ensure,
    containersOnStorage: repos.containersOnStorage,
    containerDescriber: repos.containerDescriber,
    setReadOnly: repos.setReadOnly,
    drainWrites: repos.drainWrites,
    /** Points repositories at another storage (their data must already be there). */
    relocate: repos.relocate,
    isOn,

    /**
     * Copies the repository to `storage` and verifies the copy (same refs and HEAD, every
     * object reachable). `attempt` names the staging directory. Answers the refs copied,
     * for `removeSource`.
     */
    async copyTo(repository: RepositoryHandle, storage: string, attempt: number): Promise<string> {
      const snapshot = await refsSnapshot(repository.gitDir);
      await copyRepository(repository.gitDir, dirOn(repository, storage), attempt, snapshot);
      return snapshot;
    },

    /** Removes what an interrupted `copyTo` left in staging. */
    discardStaging: (repository: RepositoryHandle, storage: string, attempt: number) =>
      rm(stagingDir(dirOn(repository, storage), attempt), { recursive: true, force: true }),

    /** Removes a finished copy on `storage`; never the repository's own directory. */
    async discardCopy(repository: RepositoryHandle, storage: string): Promise<void> {
      if (!isOn(repository, storage)) await rm(dirOn(repository, storage), { recursive: true, force: true });
    },

    /**
     * Removes the repository's directory on its (former) storage, unless its refs changed
     * since `snapshot` (a write from another process that slipped in is kept).
     */
    async removeSource(repository: RepositoryHandle, snapshot: string): Promise<void> {
      if ((await refsSnapshot(repository.gitDir)) !== snapshot) {
        throw new Error(`The source repository changed during the move and was kept at ${repository.gitDir}`);
      }
      await rm(repository.gitDir, { recursive: true, force: true });
    },
  };
}

export type RepositoryPlacement = ReturnType<typeof createRepositoryPlacement>;
