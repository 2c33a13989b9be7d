import { kernelServices, definePlugin } from '@forgekit/kernel';
import { AccessLevel, coreAccessRef, coreEvents } from '@forgekit/plugin-core/contracts';
import { planLimitsServiceRef } from '@forgekit/plugin-plan-limits/contracts';
import { CiVariableEntity } from './entities/ci-variable.js';
import { init } from './migrations/202611221210-init.js';
import { INSTANCE_OWNER } from './variables/owner-kinds.js';
import { variableRoutes } from './variables/variable-routes.js';
import { createVariableService } from './variables/variable-service.js';
import { createVariableStore } from './variables/variable-store.js';

/** CI/CD variables of projects, groups and the instance. */
export const ciVariablesPlugin = definePlugin({
  id: 'ci-variables',
  compatibility: '^0.1.0',
  entities: [CiVariableEntity],
  migrations: [init],
  requires: [coreAccessRef, planLimitsServiceRef],
  register(ctx) {
    const database = ctx.resolve(kernelServices.database);
    const access = ctx.resolve(coreAccessRef);
    const service = createVariableService(createVariableStore(database), ctx.resolve(planLimitsServiceRef));

    ctx.routes(
      ...variableRoutes(service, {
        kind: 'project',
        path: '/projects/:id/variables',
        auth: 'required',
        owner: async (req) => ({ kind: 'project', id: (await access.requireProject(req.user, req.params.id, AccessLevel.MAINTAINER)).project.id }),
      }),
      ...variableRoutes(service, {
        kind: 'group',
        path: '/groups/:id/variables',
        auth: 'required',
        owner: async (req) => ({ kind: 'group', id: (await access.requireGroup(req.user, req.params.id, AccessLevel.OWNER)).group.id }),
      }),
      ...variableRoutes(service, { kind: 'instance', path: '/admin/ci/variables', auth: 'admin', owner: async () => INSTANCE_OWNER }),
    );

    ctx.events.on(coreEvents.projectDeleted, async ({ projectId }) => {
      await service.removeAllOf({ kind: 'project', id: projectId });
    });
    ctx.events.on(coreEvents.groupDeleted, async ({ groupId }) => {
      await service.removeAllOf({ kind: 'group', id: groupId });
    });
  },
});
