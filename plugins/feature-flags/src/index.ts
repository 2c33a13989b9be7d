import { featureFlagsPlugin } from './plugin.js';

export { featureFlagsPlugin } from './plugin.js';
export { featureFlagsClientRef } from './refs.js';
export { CLIENT_TOKEN_PREFIX, type FeatureFlagsClientService } from './unleash/feature-flags-client-service.js';
export { STRATEGY_PARAMETERS, USER_LIST_STRATEGY } from './flags/strategy-rules.js';
export default featureFlagsPlugin;
