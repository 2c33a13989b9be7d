import { definePlugin, kernelServices } from '@forgekit/kernel';
import { coreAccessRef, coreEvents, coreGroupsRef, coreProjectsRef } from '@forgekit/plugin-core/contracts';
import { cadenceRoutes } from './cadences/cadence-routes.js';
import { createCadenceService } from './cadences/cadence-service.js';
import { createCadenceStore } from './cadences/cadence-store.js';
import { iterationCadencesServiceRef, iterationsServiceRef } from './contracts.js';
import { IterationEntity } from './entities/iteration.js';
import { IterationCadenceEntity } from './entities/iteration-cadence.js';
import { createGroupDirectory } from './groups/group-directory.js';
import { iterationListRoutes } from './iterations/iteration-routes.js';
import { createIterationService } from './iterations/iteration-service.js';
import { createIterationStore } from './iterations/iteration-store.js';
import { init } from './migrations/202611242300-init.js';
import { closedAt } from './migrations/202611250200-closed-at.js';

/**
 * Schedules an automatic cadence's iterations (`{ cadenceId }`); with no data, every active
 * automatic cadence's, then closes the iterations whose due date has passed (`iterationEvents.closed`).
 */
export const SCHEDULE_JOB = 'iterations:schedule';

/** Group iteration cadences and their iterations. */
export const iterationsPlugin = definePlugin({
  id: 'iterations',
  compatibility: '^0.1.0',
  entities: [IterationCadenceEntity, IterationEntity],
  migrations: [init, closedAt],
  requires: [coreAccessRef, coreGroupsRef, coreProjectsRef],
  provides: [iterationsServiceRef, iterationCadencesServiceRef],
  register(ctx) {
    const database = ctx.resolve(kernelServices.database);
    const { externalUrl } = ctx.resolve(kernelServices.instance);
    const groups = createGroupDirectory(ctx.resolve(coreAccessRef), ctx.resolve(coreProjectsRef), ctx.resolve(coreGroupsRef));
    const iterationStore = createIterationStore(database);
    const iterations = createIterationService(iterationStore, groups, ctx.events, externalUrl);
    const cadences = createCadenceService(createCadenceStore(database), iterationStore, ctx.events, {
      requestSchedule: (cadenceId) => ctx.jobs.enqueue(SCHEDULE_JOB, { cadenceId }, { singletonKey: `cadence:${cadenceId}` }),
    });

    ctx.provide(iterationsServiceRef, iterations);
    ctx.provide(iterationCadencesServiceRef, cadences);
    ctx.jobs.define(SCHEDULE_JOB, async (data: { cadenceId?: number } | undefined) => {
      if (data?.cadenceId) await cadences.schedule(data.cadenceId);
      else {
        // Scheduling first, so a closing iteration's successor exists.
        await cadences.scheduleAll();
        await cadences.closeDue();
      }
    });
    ctx.routes(...iterationListRoutes(iterations, groups), ...cadenceRoutes(cadences, iterations, groups));

    ctx.events.on(coreEvents.groupDeleted, async ({ groupId }) => {
      await iterations.removeAllOfGroup(groupId);
      await cadences.removeAllOfGroup(groupId);
    });
  },
});
