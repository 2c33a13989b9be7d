import { definePlugin, kernelServices } from '@forgekit/kernel';
import { coreAccessRef, coreEvents, coreUsersRef } from '@forgekit/plugin-core/contracts';
import { milestoneLifecycle, milestonesServiceRef } from '@forgekit/plugin-milestones/contracts';
import { milestoneEventsServiceRef } from './contracts.js';
import { ResourceMilestoneEventEntity } from './entities/resource-milestone-event.js';
import { eventRoutes } from './events/event-routes.js';
import { createEventService } from './events/event-service.js';
import { createEventStore } from './events/event-store.js';
import { init } from './migrations/202611242310-init.js';

/** Resource milestone events: the recorder issues and merge requests call, and the endpoints that list them. */
export const milestoneEventsPlugin = definePlugin({
  id: 'milestone-events',
  compatibility: '^0.1.0',
  entities: [ResourceMilestoneEventEntity],
  migrations: [init],
  requires: [coreAccessRef, coreUsersRef, milestonesServiceRef],
  provides: [milestoneEventsServiceRef],
  register(ctx) {
    const milestones = ctx.resolve(milestonesServiceRef);
    const access = ctx.resolve(coreAccessRef);
    const service = createEventService(createEventStore(ctx.resolve(kernelServices.database)), milestones, (user, id) => access.requireProject(user, id));
    ctx.provide(milestoneEventsServiceRef, service.recorder);
    ctx.routes(...eventRoutes(service, milestones, ctx.resolve(coreUsersRef)));

    ctx.events.on(milestoneLifecycle.deleted, async ({ milestoneId }) => {
      await service.removeOfMilestone(milestoneId);
    });
    ctx.events.on(coreEvents.projectDeleted, async ({ projectId }) => {
      await service.removeOfProject(projectId);
    });
  },
});
