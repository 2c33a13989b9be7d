import { kernelServices, definePlugin } from '@forgekit/kernel';
import { coreAccessRef, coreEvents, coreProjectsRef } from '@forgekit/plugin-core/contracts';
import { planLimitsServiceRef } from '@forgekit/plugin-plan-limits/contracts';
import { featureFlagsClientRef } from './contracts.js';
import { featureFlagEntities } from './entities/index.js';
import { flagRoutes } from './flags/flag-routes.js';
import { createFlagService } from './flags/flag-service.js';
import { createFlagStore } from './flags/flag-store.js';
import { init } from './migrations/202611221200-init.js';
import { flagVersionNoDefault } from './migrations/202611241000-flag-version-no-default.js';
import { featureFlagsProjectAccess } from './shared/project-access.js';
import { createClientStore } from './unleash/client-store.js';
import { createFeatureFlagsClientService } from './unleash/feature-flags-client-service.js';
import { unleashRoutes } from './unleash/unleash-routes.js';
import { userListRoutes } from './user-lists/user-list-routes.js';
import { createUserListService } from './user-lists/user-list-service.js';
import { createUserListStore } from './user-lists/user-list-store.js';

/** Project feature flags, their user lists, and the Unleash-compatible API SDKs poll. */
export const featureFlagsPlugin = definePlugin({
  id: 'feature-flags',
  compatibility: '^0.1.0',
  entities: featureFlagEntities,
  migrations: [init, flagVersionNoDefault],
  requires: [coreAccessRef, coreProjectsRef, planLimitsServiceRef],
  provides: [featureFlagsClientRef],
  register(ctx) {
    const database = ctx.resolve(kernelServices.database);
    const { externalUrl } = ctx.resolve(kernelServices.instance);
    const projects = ctx.resolve(coreProjectsRef);
    const requireProject = featureFlagsProjectAccess(ctx.resolve(coreAccessRef), projects);
    const flagStore = createFlagStore(database);
    const userListStore = createUserListStore(database);
    const clientStore = createClientStore(database);
    const clients = createFeatureFlagsClientService(clientStore, projects, externalUrl);
    ctx.provide(featureFlagsClientRef, clients);

    ctx.routes(
      ...flagRoutes(createFlagService(flagStore, ctx.resolve(planLimitsServiceRef)), requireProject),
      ...userListRoutes(createUserListService(userListStore, flagStore), requireProject),
      ...unleashRoutes(flagStore, clients),
    );
    ctx.events.on(coreEvents.projectDeleted, ({ projectId }) =>
      database.transaction(async (tx) => {
        await flagStore.removeAllOf(tx, projectId);
        await userListStore.removeAllOf(tx, projectId);
        await clientStore.removeAllOf(tx, projectId);
      }),
    );
  },
});
