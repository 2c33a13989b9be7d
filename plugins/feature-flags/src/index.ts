import { featureFlagsPlugin } from './plugin.js';

export { featureFlagsPlugin } from './plugin.js';
export * from './contracts.js';
export { STRATEGY_PARAMETERS, USER_LIST_STRATEGY } from './flags/strategy-rules.js';
export default featureFlagsPlugin;
