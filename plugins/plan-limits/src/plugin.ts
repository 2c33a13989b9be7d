import { coreServices, definePlugin } from '@forgekit/kernel';
import { PlanLimitOverride } from './entities/plan-limit-override.js';
import { planLimitsRoutes } from './limits/plan-limits-routes.js';
import { createPlanLimitsService } from './limits/plan-limits-service.js';
import { init } from './migrations/202611221200-init.js';
import { planLimitsServiceRef } from './refs.js';

/** Instance plan limits (`/application/plan_limits`) and the service other plugins enforce them with. */
export const planLimitsPlugin = definePlugin({
  id: 'plan-limits',
  compatibility: '^0.1.0',
  entities: [PlanLimitOverride],
  migrations: [init],
  provides: [planLimitsServiceRef],
  register(ctx) {
    const { knex: db } = ctx.resolve(coreServices.database);
    const store = createPlanLimitsService(db);
    ctx.provide(planLimitsServiceRef, store);
    ctx.routes(...planLimitsRoutes(store));
  },
});
