/**
 * Recovery of moves whose process died (run by `storage-moves:recover`): a move silent
 * in `started` is failed and its repositories made writable, unless its records had
 * already switched to the destination, in which case it is finished as `cleanup failed`
 * (the data is at the destination, the source is left on disk). A silent `replicated`
 * move ends `cleanup failed` too (its repositories writable), and a `scheduled` one
 * never picked up is queued again.
 */
import type { JobService } from '@forgekit/kernel';
import type { RepositoryPlacement } from '@forgekit/plugin-repositories/contracts';
import type { ContainerAdapters } from './containers.js';
import { MOVE_JOB } from './move-scheduler.js';
import { MoveState } from './move-states.js';
import type { RepositoryStorageMoveRow, MoveStore } from './move-store.js';

export const STOPPED_MESSAGE = 'The move stopped before it finished';
export const SOURCE_LEFT_MESSAGE = 'The move stopped before the source repository was removed';

export function createMoveRecovery(deps: { store: MoveStore; repos: RepositoryPlacement; adapters: ContainerAdapters; jobs: Pick<JobService, 'enqueue'> }) {
  const { store, repos, adapters, jobs } = deps;

  async function recoverStarted(move: RepositoryStorageMoveRow) {
    const adapter = adapters[move.containerType];
    const repositories = await repos.findAll(adapter.repositoryKinds, move.containerId);
    const ids = repositories.map((repository) => repository.id);
    const switched =
      move.sourceStorageName !== move.destinationStorageName &&
      repositories.length > 0 &&
      repositories.every((repository) => repository.storage === move.destinationStorageName);
    if (!switched) {
      if (await store.transition(move.id, MoveState.started, MoveState.failed, STOPPED_MESSAGE)) await repos.setReadOnly(ids, false);
      return;
    }
    if (!(await store.transition(move.id, MoveState.started, MoveState.replicated))) return;
    await adapter.recordStorage(move.containerId, move.destinationStorageName);
    await repos.setReadOnly(ids, false);
    await store.transition(move.id, MoveState.replicated, MoveState.cleanupFailed, SOURCE_LEFT_MESSAGE);
  }

  return async function recover(before: Date): Promise<void> {
    for (const move of await store.idleSince(MoveState.started, before)) await recoverStarted(move);
    for (const move of await store.idleSince(MoveState.replicated, before)) {
      if (!(await store.transition(move.id, MoveState.replicated, MoveState.cleanupFailed, SOURCE_LEFT_MESSAGE))) continue;
      const repositories = await repos.findAll(adapters[move.containerType].repositoryKinds, move.containerId);
      await repos.setReadOnly(
        repositories.map((repository) => repository.id),
        false,
      );
    }
    for (const move of await store.idleSince(MoveState.scheduled, before)) await jobs.enqueue(MOVE_JOB, { moveId: move.id }, { singletonKey: String(move.id) });
  };
}
