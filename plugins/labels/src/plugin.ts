import { definePlugin, kernelServices } from '@forgekit/kernel';
import { coreAccessRef, coreEvents, coreProjectsRef } from '@forgekit/plugin-core/contracts';
import { labelsServiceRef } from './contracts.js';
import { LabelEntity } from './entities/label.js';
import { LabelPriorityEntity } from './entities/label-priority.js';
import { LabelSubscriptionEntity } from './entities/label-subscription.js';
import { groupLabelRoutes } from './labels/group-label-routes.js';
import { createLabelService } from './labels/label-service.js';
import { createLabelStore } from './labels/label-store.js';
import { createLabelViews } from './labels/label-views.js';
import { createLabelsApi } from './labels/labels-api.js';
import { projectLabelRoutes } from './labels/project-label-routes.js';
import { init } from './migrations/202611242300-init.js';
import { lockVersion } from './migrations/202611271400-lock-version.js';

/** Project and group labels, their priorities and subscriptions, and the labels service issues and merge requests use. */
export const labelsPlugin = definePlugin({
  id: 'labels',
  compatibility: '^0.1.0',
  entities: [LabelEntity, LabelPriorityEntity, LabelSubscriptionEntity],
  migrations: [init, lockVersion],
  requires: [coreAccessRef, coreProjectsRef],
  provides: [labelsServiceRef],
  register(ctx) {
    const access = ctx.resolve(coreAccessRef);
    const labels = createLabelService(createLabelStore(ctx.resolve(kernelServices.database)), ctx.resolve(kernelServices.events));
    const views = createLabelViews(labels, ctx.resolve(kernelServices.presented));
    const projects = ctx.resolve(coreProjectsRef);
    const groupOfProject = async (projectId: number) => {
      const project = await projects.findById(projectId);
      return project?.namespace.kind === 'group' ? project.namespaceId : null;
    };
    ctx.provide(labelsServiceRef, createLabelsApi(labels, projects));
    ctx.routes(...groupLabelRoutes(labels, views, access), ...projectLabelRoutes(labels, views, access, groupOfProject));

    ctx.events.on(coreEvents.projectDeleted, ({ projectId }) => labels.removeOwner('project', projectId));
    ctx.events.on(coreEvents.groupDeleted, ({ groupId }) => labels.removeOwner('group', groupId));
    ctx.events.on(coreEvents.userDeleted, async ({ userId }) => {
      await labels.removeSubscriber(userId);
    });
  },
});
