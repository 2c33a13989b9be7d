import { kernelServices, definePlugin } from '@forgekit/kernel';
import { coreAccessRef, coreEvents, coreGroupsRef, coreProjectsRef, coreUsersRef } from '@forgekit/plugin-core/contracts';
import { planLimitsServiceRef } from '@forgekit/plugin-plan-limits/contracts';
import { runnerEntities } from './entities/index.js';
import { createRunnerLimits } from './limits/runner-limits.js';
import { init } from './migrations/202611221200-init.js';
import { createOwnershipCleanup } from './ownership/ownership-cleanup.js';
import { runnersServiceRef } from './contracts.js';
import { registrationRoutes } from './registration/registration-routes.js';
import { createRegistrationTokens } from './registration/registration-tokens.js';
import { runnerTokenRoutes } from './registration/runner-token-routes.js';
import { createRunnerCreation } from './runners/runner-creation.js';
import { createRunnerList } from './runners/runner-list.js';
import { createRunnerPermissions } from './runners/runner-permissions.js';
import { createRunnerPresenter } from './runners/runner-presenter.js';
import { runnerRoutes } from './runners/runner-routes.js';
import { createRunnerStore } from './runners/runner-store.js';
import { scopedRunnerRoutes } from './runners/scoped-runner-routes.js';
import type { RunnerDeps } from './shared/deps.js';

/** CI runners: registration, the newer creation flow, listing, status, assignment and plan limits. */
export const runnersPlugin = definePlugin({
  id: 'runners',
  compatibility: '^0.1.0',
  entities: runnerEntities,
  migrations: [init],
  requires: [coreAccessRef, coreUsersRef, coreProjectsRef, coreGroupsRef, planLimitsServiceRef],
  provides: [runnersServiceRef],
  register(ctx) {
    const database = ctx.resolve(kernelServices.database);
    const access = ctx.resolve(coreAccessRef);
    const projects = ctx.resolve(coreProjectsRef);
    const groups = ctx.resolve(coreGroupsRef);
    const store = createRunnerStore(database);
    const limits = createRunnerLimits(database, ctx.resolve(planLimitsServiceRef));
    const presenter = createRunnerPresenter(store, { users: ctx.resolve(coreUsersRef), projects, groups, access });
    const registrationTokens = createRegistrationTokens(database);
    const deps: RunnerDeps = {
      database,
      access,
      projects,
      groups,
      store,
      limits,
      presenter,
      registrationTokens,
      permissions: createRunnerPermissions(access, projects, groups, store),
      runnerPage: createRunnerList(database, presenter),
      createRunner: createRunnerCreation(store, limits),
    };

    ctx.provide(runnersServiceRef, store.service);
    ctx.routes(...runnerTokenRoutes(deps), ...registrationRoutes(deps), ...runnerRoutes(deps), ...scopedRunnerRoutes(deps));

    const cleanup = createOwnershipCleanup(database, store, registrationTokens);
    ctx.events.on(coreEvents.projectDeleted, ({ projectId }) => cleanup.projectDeleted(projectId));
    ctx.events.on(coreEvents.groupDeleted, ({ groupId }) => cleanup.groupDeleted(groupId));
  },
});
