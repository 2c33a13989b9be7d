/**
 * Runs one storage move, exactly once: only the job that wins the `scheduled → started`
 * swap does the work. The repositories are copied and verified, then the records
 * switch to the destination and the repositories become writable (`replicated`), then
 * the source copies are removed (`finished`, or `cleanup failed`). Any failure before
 * the switch removes the partial copies, keeps the source, and marks the move `failed`.
 */
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Logger } from '@forgekit/kernel';
import type { RepositoryHandle, RepositoryService } from '@forgekit/plugin-repositories';
import type { ContainerAdapters } from './containers.js';
import { copyRepository, refsSnapshot, stagingDir } from './repository-copy.js';
import { MoveState } from './move-states.js';
import type { MoveRow, MoveStore } from './move-store.js';

/** Points where tests (or operators' tooling) can act in the middle of a move. */
export interface MoveHooks {
  /** After every repository was copied and verified, before the records switch. */
  afterCopy?: (move: MoveRow) => void | Promise<void>;
  /** After the records switched to the destination, before the move is `replicated` and the repositories writable. */
  afterSwitch?: (move: MoveRow) => void | Promise<void>;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createMoveRunner(deps: { store: MoveStore; repos: RepositoryService; adapters: ContainerAdapters; log: Logger; hooks: MoveHooks }) {
  const { store, repos, adapters, log, hooks } = deps;

  const samePlace = (repository: RepositoryHandle, destination: string) =>
    resolve(repos.gitDirOn(repository.storage, repository.diskPath)) === resolve(repos.gitDirOn(destination, repository.diskPath));

  async function fail(move: MoveRow, repositories: RepositoryHandle[], placed: string[], error: unknown) {
    log.warn({ err: error, moveId: move.id }, 'repository storage move failed');
    for (const repository of repositories)
      await rm(stagingDir(repos.gitDirOn(move.destination_storage_name, repository.diskPath), move.id), { recursive: true, force: true });
    // Once the move was failed elsewhere (its process was taken for dead), a later move may
    // own the repositories and the destination directories: leave them alone. (A move whose
    // container was deleted is gone altogether; its copies are still this run's to remove.)
    if (!(await store.stillStarted(move.id)) && (await store.find(move.id))) return;
    for (const dir of placed) await rm(dir, { recursive: true, force: true });
    // Writable before the state says so, as in GitLab: a `failed` move has let go of its repositories.
    await repos.setReadOnly(
      repositories.map((repository) => repository.id),
      false,
    );
    await store.transition(move.id, MoveState.started, MoveState.failed, messageOf(error));
  }

  return async function runMove({ moveId }: { moveId: number }): Promise<void> {
    const move = await store.find(moveId);
    if (!move || !(await store.transition(move.id, MoveState.scheduled, MoveState.started))) return;
    const adapter = adapters[move.container_type];
    const destination = move.destination_storage_name;
    const repositories = await repos.findAll(adapter.repositoryKinds, move.container_id);
    const ids = repositories.map((repository) => repository.id);
    const snapshots = new Map<number, string>();
    const placed: string[] = [];

    try {
      await repos.drainWrites(ids);
      for (const repository of repositories) {
        if (samePlace(repository, destination)) continue;
        const source = repos.gitDirOn(repository.storage, repository.diskPath);
        const target = repos.gitDirOn(destination, repository.diskPath);
        const snapshot = await refsSnapshot(source);
        snapshots.set(repository.id, snapshot);
        await copyRepository(source, target, move.id, snapshot);
        placed.push(target);
        if (!(await store.stillStarted(move.id))) throw new Error('The move was stopped');
      }
      await hooks.afterCopy?.(move);
      if (!(await store.stillStarted(move.id))) throw new Error('The move was stopped');
    } catch (error) {
      return fail(move, repositories, placed, error);
    }

    try {
      await repos.relocate(ids, destination);
      await adapter.recordStorage(move.container_id, destination);
    } catch (error) {
      for (const repository of repositories) await repos.relocate([repository.id], repository.storage).catch(() => undefined);
      return fail(move, repositories, placed, error);
    }
    await hooks.afterSwitch?.(move);
    // A move failed or recovered elsewhere meanwhile is no longer this run's to finish.
    if (!(await store.stillStarted(move.id))) return;
    await repos.setReadOnly(ids, false);
    await store.transition(move.id, MoveState.started, MoveState.replicated);

    try {
      for (const repository of repositories) {
        const snapshot = snapshots.get(repository.id);
        if (snapshot === undefined) continue;
        const source = repos.gitDirOn(repository.storage, repository.diskPath);
        // A write from another process that slipped in would only be in the source: keep it.
        if ((await refsSnapshot(source)) !== snapshot) throw new Error(`The source repository changed during the move and was kept at ${source}`);
        await rm(source, { recursive: true, force: true });
      }
      await store.transition(move.id, MoveState.replicated, MoveState.finished);
    } catch (error) {
      log.warn({ err: error, moveId: move.id }, 'repository storage move could not remove the source');
      await store.transition(move.id, MoveState.replicated, MoveState.cleanupFailed, messageOf(error));
    }
  };
}
