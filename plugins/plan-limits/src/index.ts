import { planLimitsPlugin } from './plugin.js';

export { planLimitsPlugin } from './plugin.js';
export { planLimitsServiceRef, type PlanLimitsService } from './refs.js';
export { setPlanLimit, CACHE_TTL_MS } from './limits/plan-limits-service.js';
export { PLAN_NAMES, DEFAULT_PLAN, limitExceededMessage, PUBLIC_LIMITS, INTERNAL_LIMITS, type PlanName, type PublicLimit } from './limits/limit-catalogue.js';
export default planLimitsPlugin;
