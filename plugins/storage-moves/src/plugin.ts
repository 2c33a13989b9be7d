import { kernelServices, definePlugin, type ForgePlugin } from '@forgekit/kernel';
import { coreAccessRef, coreEvents, coreGroupsRef, coreProjectsRef } from '@forgekit/plugin-core/contracts';
import { repositoryPlacementRef } from '@forgekit/plugin-repositories/contracts';
import * as v from 'valibot';
import { RepositoryStorageMoveEntity } from './entities/repository-storage-move.js';
import { init } from './migrations/202611231100-init.js';
import { containerAdapters } from './moves/containers.js';
import { moveRoutes } from './moves/move-routes.js';
import { createMoveRecovery } from './moves/move-recovery.js';
import type { MoveHooks } from './contracts.js';
import { createMoveRunner } from './moves/move-runner.js';
import { BULK_JOB, createMoveScheduler, MOVE_JOB, type BulkMoveJob } from './moves/move-scheduler.js';
import { createMoveStore } from './moves/move-store.js';

export const StorageMovesConfigSchema = v.object({
  /** A started move not heard from for this long is failed by `storage-moves:recover` (its process died). */
  staleAfterMinutes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 60),
});
export type StorageMovesConfig = v.InferOutput<typeof StorageMovesConfigSchema>;

export const RECOVER_JOB = 'storage-moves:recover';

export interface StorageMovesOptions {
  hooks?: MoveHooks;
}

/** The storage moves plugin; `hooks` let tests act in the middle of a move. */
export function createStorageMovesPlugin(options: StorageMovesOptions = {}): ForgePlugin<StorageMovesConfig> {
  return definePlugin<StorageMovesConfig>({
    id: 'storage-moves',
    compatibility: '^0.1.0',
    config: StorageMovesConfigSchema,
    entities: [RepositoryStorageMoveEntity],
    migrations: [init],
    requires: [repositoryPlacementRef, coreAccessRef, coreProjectsRef, coreGroupsRef],
    register(ctx) {
      const repos = ctx.resolve(repositoryPlacementRef);
      const projects = ctx.resolve(coreProjectsRef);
      const store = createMoveStore(ctx.resolve(kernelServices.database));
      const adapters = containerAdapters({ repos, projects, groups: ctx.resolve(coreGroupsRef), access: ctx.resolve(coreAccessRef) });
      const scheduler = createMoveScheduler({ store, repos, jobs: ctx.jobs, log: ctx.log });
      const runMove = createMoveRunner({ store, repos, adapters, log: ctx.log, hooks: options.hooks ?? {} });

      ctx.jobs.define(MOVE_JOB, runMove);
      ctx.jobs.define(BULK_JOB, async ({ type, source, destination, by }: BulkMoveJob) => {
        await scheduler.scheduleAll(adapters[type], source, destination, by);
      });
      const recover = createMoveRecovery({ store, repos, adapters, jobs: ctx.jobs });
      ctx.jobs.define(RECOVER_JOB, () => recover(new Date(Date.now() - ctx.config.staleAfterMinutes * 60_000)));

      const enqueue = (name: string, data: unknown) => ctx.jobs.enqueue(name, data);
      for (const adapter of Object.values(adapters)) ctx.routes(...moveRoutes(adapter, { store, scheduler, repos, enqueue }));

      // Changing `repository_storage` through `PUT /projects/:id` moves the repository, as in GitLab.
      ctx.events.on(coreEvents.projectUpdated, async ({ projectId }) => {
        const project = await projects.findById(projectId);
        const repository = project && (await repos.find({ kind: 'project', containerId: projectId }));
        if (!project || !repository || repository.storage === project.repositoryStorage || repository.readOnly) return;
        const requested = project.repositoryStorage;
        await projects.update(project, { repositoryStorage: repository.storage });
        if (!repos.hasStorage(requested)) return;
        await scheduler
          .schedule(adapters.project, projectId, requested)
          .catch((error) => ctx.log.warn({ err: error, projectId }, 'storage move not scheduled'));
      });
      ctx.events.on(coreEvents.projectDeleted, ({ projectId }) => store.removeFor('project', projectId).then(() => undefined));
      ctx.events.on(coreEvents.groupDeleted, ({ groupId }) => store.removeFor('group', groupId).then(() => undefined));
    },
  });
}

/** Repository storage moves for projects, snippets and group wikis, run as jobs. */
export const storageMovesPlugin = createStorageMovesPlugin();
