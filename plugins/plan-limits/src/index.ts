import { planLimitsPlugin } from './plugin.js';

export { planLimitsPlugin } from './plugin.js';
export { CACHE_TTL_MS } from './limits/plan-limits-service.js';
export * from './contracts.js';
export default planLimitsPlugin;
