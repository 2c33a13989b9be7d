import { kernelServices, definePlugin } from '@forgekit/kernel';
import { planLimitsServiceRef } from './contracts.js';
import { PlanLimitOverrideEntity } from './entities/plan-limit-override.js';
import { planLimitsRoutes } from './limits/plan-limits-routes.js';
import { createPlanLimitsService } from './limits/plan-limits-service.js';
import { createPlanLimitsStore } from './limits/plan-limits-store.js';
import { init } from './migrations/202611221200-init.js';

/** Instance plan limits (`/application/plan_limits`) and the service other plugins enforce them with. */
export const planLimitsPlugin = definePlugin({
  id: 'plan-limits',
  compatibility: '^0.1.0',
  entities: [PlanLimitOverrideEntity],
  migrations: [init],
  provides: [planLimitsServiceRef],
  register(ctx) {
    const limits = createPlanLimitsService(createPlanLimitsStore(ctx.resolve(kernelServices.database)));
    ctx.provide(planLimitsServiceRef, limits);
    ctx.routes(...planLimitsRoutes(limits));
  },
});
