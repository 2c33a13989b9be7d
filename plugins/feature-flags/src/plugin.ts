import { kernelServices, definePlugin } from '@forgekit/kernel';
import { coreAccessRef, coreProjectsRef } from '@forgekit/plugin-core';
import { planLimitsServiceRef } from '@forgekit/plugin-plan-limits';
import { featureFlagEntities } from './entities/index.js';
import { flagRoutes } from './flags/flag-routes.js';
import { createFlagService } from './flags/flag-service.js';
import { init } from './migrations/202611221200-init.js';
import { flagVersionNoDefault } from './migrations/202611241000-flag-version-no-default.js';
import { featureFlagsClientRef } from './refs.js';
import { deleteProjectData } from './shared/project-cleanup.js';
import { createFeatureFlagsClientService } from './unleash/feature-flags-client-service.js';
import { unleashRoutes } from './unleash/unleash-routes.js';
import { userListRoutes } from './user-lists/user-list-routes.js';
import { createUserListService } from './user-lists/user-list-service.js';

/** Project feature flags, their user lists, and the Unleash-compatible API SDKs poll. */
export const featureFlagsPlugin = definePlugin({
  id: 'feature-flags',
  compatibility: '^0.1.0',
  entities: featureFlagEntities,
  migrations: [init, flagVersionNoDefault],
  requires: [coreAccessRef, coreProjectsRef, planLimitsServiceRef],
  provides: [featureFlagsClientRef],
  register(ctx) {
    const { knex: db } = ctx.resolve(kernelServices.database);
    const { externalUrl } = ctx.resolve(kernelServices.instance);
    const access = ctx.resolve(coreAccessRef);
    const clients = createFeatureFlagsClientService(db, ctx.resolve(coreProjectsRef), externalUrl);
    ctx.provide(featureFlagsClientRef, clients);

    ctx.routes(
      ...flagRoutes(createFlagService(db, ctx.resolve(planLimitsServiceRef)), access),
      ...userListRoutes(createUserListService(db), access),
      ...unleashRoutes(db, clients),
    );

    ctx.events.on<{ projectId: number }>('project.deleted', ({ projectId }) => deleteProjectData(db, projectId));
  },
});
