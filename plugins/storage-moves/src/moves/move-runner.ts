/**
 * Runs one storage move, exactly once: only the job that wins the `scheduled → started`
 * swap does the work. The repositories are copied and verified, then the records
 * switch to the destination and the repositories become writable (`replicated`), then
 * the source copies are removed (`finished`, or `cleanup failed`). Any failure before
 * the switch removes the partial copies, keeps the source, and marks the move `failed`.
 */
import type { Logger } from '@forgekit/kernel';
import type { RepositoryHandle, RepositoryPlacement } from '@forgekit/plugin-repositories/contracts';
import type { MoveHooks, StorageMove } from '../contracts.js';
import type { ContainerAdapters } from './containers.js';
import { MoveState } from './move-states.js';
import type { RepositoryStorageMoveRow, MoveStore } from './move-store.js';

/** The move as hooks see it: the domain's fields, not the row. */
const storageMoveOf = (move: RepositoryStorageMoveRow): StorageMove => ({
  id: move.id,
  containerType: move.containerType,
  containerId: move.containerId,
  sourceStorageName: move.sourceStorageName,
  destinationStorageName: move.destinationStorageName,
});

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createMoveRunner(deps: { store: MoveStore; repos: RepositoryPlacement; adapters: ContainerAdapters; log: Logger; hooks: MoveHooks }) {
  const { store, repos, adapters, log, hooks } = deps;

  async function fail(move: RepositoryStorageMoveRow, repositories: RepositoryHandle[], placed: RepositoryHandle[], error: unknown) {
    log.warn({ err: error, moveId: move.id }, 'repository storage move failed');
    const destination = move.destinationStorageName;
    for (const repository of repositories) await repos.discardStaging(repository, destination, move.id);
    // Once the move was failed elsewhere (its process was taken for dead), a later move may
    // own the repositories and the destination directories: leave them alone. (A move whose
    // container was deleted is gone altogether; its copies are still this run's to remove.)
    if (!(await store.stillStarted(move.id)) && (await store.find(move.id))) return;
    for (const repository of placed) await repos.discardCopy(repository, destination);
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
    const adapter = adapters[move.containerType];
    const destination = move.destinationStorageName;
    const repositories = await repos.findAll(adapter.repositoryKinds, move.containerId);
    const ids = repositories.map((repository) => repository.id);
    const snapshots = new Map<number, string>();
    const placed: RepositoryHandle[] = [];

    try {
      await repos.drainWrites(ids);
      for (const repository of repositories) {
        if (repos.isOn(repository, destination)) continue;
        snapshots.set(repository.id, await repos.copyTo(repository, destination, move.id));
        placed.push(repository);
        if (!(await store.stillStarted(move.id))) throw new Error('The move was stopped');
      }
      await hooks.afterCopy?.(storageMoveOf(move));
      if (!(await store.stillStarted(move.id))) throw new Error('The move was stopped');
    } catch (error) {
      return fail(move, repositories, placed, error);
    }

    try {
      await repos.relocate(ids, destination);
      await adapter.recordStorage(move.containerId, destination);
    } catch (error) {
      for (const repository of repositories) await repos.relocate([repository.id], repository.storage).catch(() => undefined);
      return fail(move, repositories, placed, error);
    }
    await hooks.afterSwitch?.(storageMoveOf(move));
    // A move failed or recovered elsewhere meanwhile is no longer this run's to finish.
    if (!(await store.stillStarted(move.id))) return;
    await repos.setReadOnly(ids, false);
    await store.transition(move.id, MoveState.started, MoveState.replicated);

    try {
      for (const repository of repositories) {
        const snapshot = snapshots.get(repository.id);
        if (snapshot === undefined) continue;
        // A write from another process that slipped in would only be in the source: it is kept.
        await repos.removeSource(repository, snapshot);
      }
      await store.transition(move.id, MoveState.replicated, MoveState.finished);
    } catch (error) {
      log.warn({ err: error, moveId: move.id }, 'repository storage move could not remove the source');
      await store.transition(move.id, MoveState.replicated, MoveState.cleanupFailed, messageOf(error));
    }
  };
}
