import { definePlugin, forbidden, kernelServices } from '@forgekit/kernel';
import { AccessLevel, coreAccessRef, coreEvents, coreGroupsRef, coreProjectsRef } from '@forgekit/plugin-core/contracts';
import { milestonesServiceRef } from './contracts.js';
import { MilestoneEntity } from './entities/milestone.js';
import { init } from './migrations/202611242300-init.js';
import { createParentDirectory, type FoundParent, groupParent, projectParent } from './milestones/milestone-parents.js';
import { milestoneRoutes } from './milestones/milestone-routes.js';
import { createMilestoneService } from './milestones/milestone-service.js';
import { createMilestoneStore } from './milestones/milestone-store.js';

/** Project and group milestones, and the milestone lookups issues and merge requests use. */
export const milestonesPlugin = definePlugin({
  id: 'milestones',
  compatibility: '^0.1.0',
  entities: [MilestoneEntity],
  migrations: [init],
  requires: [coreAccessRef, coreProjectsRef, coreGroupsRef],
  provides: [milestonesServiceRef],
  register(ctx) {
    const database = ctx.resolve(kernelServices.database);
    const access = ctx.resolve(coreAccessRef);
    const parents = createParentDirectory(
      { access, projects: ctx.resolve(coreProjectsRef), groups: ctx.resolve(coreGroupsRef) },
      ctx.resolve(kernelServices.instance).externalUrl,
    );
    const service = createMilestoneService(createMilestoneStore(database), parents, access, ctx.events);
    ctx.provide(milestonesServiceRef, service.contract);

    // Writes to an archived project are refused by core's archived-project guard.
    const project = async (user: Parameters<typeof access.requireProject>[0], id: string, level?: number): Promise<FoundParent> => {
      const found = await access.requireProject(user, id, level);
      return { ...projectParent(found.project), items: { kind: 'project', access: found } };
    };
    const group = async (user: Parameters<typeof access.requireGroup>[0], id: string, level?: number): Promise<FoundParent> => {
      const found = await access.requireGroup(user, id, level);
      return { ...groupParent(found.group), items: { kind: 'group', access: found } };
    };

    ctx.routes(
      ...milestoneRoutes(service, {
        kind: 'project',
        path: '/projects/:id/milestones',
        reader: (req) => project(req.user, req.params.id!),
        manager: (req) => project(req.user, req.params.id!, AccessLevel.PLANNER),
        async promoter(req) {
          const found = await access.requireProject(req.user, req.params.id!, AccessLevel.PLANNER);
          const parent = projectParent(found.project);
          // The caller needs the role in the project's group too; a personal project has none.
          if (parent.groupId === null || (!req.user?.isAdmin && (found.groupLevel ?? 0) < AccessLevel.PLANNER)) throw forbidden();
          return parent;
        },
      }),
      ...milestoneRoutes(service, {
        kind: 'group',
        path: '/groups/:id/milestones',
        reader: (req) => group(req.user, req.params.id!),
        manager: (req) => group(req.user, req.params.id!, AccessLevel.PLANNER),
      }),
    );

    ctx.events.on(coreEvents.projectDeleted, ({ projectId }) => service.removeAllOf({ kind: 'project', id: projectId }));
    ctx.events.on(coreEvents.groupDeleted, ({ groupId }) => service.removeAllOf({ kind: 'group', id: groupId }));
  },
});
