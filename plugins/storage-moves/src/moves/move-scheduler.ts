/**
 * Scheduling moves: GitLab's validations, the repositories made read-only (each only if
 * it was writable, so two schedulers cannot both own one), then the move job queued.
 */
import { validationFailed, type JobService, type Logger, type Principal } from '@forgekit/kernel';
import type { RepositoryPlacement } from '@forgekit/plugin-repositories/contracts';
import type { ContainerAdapter } from './containers.js';
import { MoveState } from './move-states.js';
import type { ContainerType, RepositoryStorageMoveRow, MoveStore } from './move-store.js';

export const MOVE_JOB = 'storage-moves:move';
export const BULK_JOB = 'storage-moves:schedule-bulk';

/** What a bulk move job carries: the containers of one type on `source`, and the administrator who asked. */
export interface BulkMoveJob {
  type: ContainerType;
  source: string;
  destination: string | null;
  by: Principal;
}

export function createMoveScheduler(deps: { store: MoveStore; repos: RepositoryPlacement; jobs: Pick<JobService, 'enqueue'>; log: Logger }) {
  const { store, repos, jobs, log } = deps;
  const readOnly = (adapter: ContainerAdapter) => validationFailed({ [adapter.key]: ['is read-only'] });

  async function schedule(adapter: ContainerAdapter, containerId: number, destinationName?: string | null): Promise<RepositoryStorageMoveRow> {
    const source = await adapter.currentStorage(containerId);
    const destination = destinationName ?? (await repos.pickStorage(source));
    const errors: Record<string, string[]> = {};
    if (!repos.hasStorage(source)) errors.source_storage_name = ['is not included in the list'];
    if (!repos.hasStorage(destination))
      errors.destination_storage_name = destination === '' ? ["can't be blank", 'is not included in the list'] : ['is not included in the list'];
    if (Object.keys(errors).length > 0) throw validationFailed(errors);

    await adapter.prepare(containerId);
    const repositories = await repos.findAll(adapter.repositoryKinds, containerId);
    if (repositories.some((repository) => repository.readOnly) || (await store.active(adapter.type, containerId))) throw readOnly(adapter);
    const locked: number[] = [];
    for (const repository of repositories) {
      if ((await repos.setReadOnly([repository.id], true)) === 1) locked.push(repository.id);
      else {
        await repos.setReadOnly(locked, false);
        throw readOnly(adapter);
      }
    }
    const move = await store.insert({ type: adapter.type, containerId, state: MoveState.scheduled, source, destination });
    try {
      await jobs.enqueue(MOVE_JOB, { moveId: move.id }, { singletonKey: String(move.id) });
    } catch (error) {
      await repos.setReadOnly(locked, false);
      await store.transition(move.id, MoveState.scheduled, MoveState.failed, error instanceof Error ? error.message : String(error));
      throw error;
    }
    return move;
  }

  return {
    schedule,
    /** One move per container on `source`; containers that cannot move now are skipped. */
    async scheduleAll(adapter: ContainerAdapter, source: string, destination: string | null, by: Principal): Promise<number> {
      let scheduled = 0;
      for (const id of await adapter.containersOn(source, by)) {
        try {
          await schedule(adapter, id, destination);
          scheduled++;
        } catch (error) {
          log.warn({ err: error, container: adapter.type, id }, 'storage move not scheduled');
        }
      }
      return scheduled;
    },
  };
}

export type MoveScheduler = ReturnType<typeof createMoveScheduler>;
