import { FeatureFlag } from './feature-flag.js';
import { FeatureFlagInternalId } from './feature-flag-internal-id.js';
import { FeatureFlagScope } from './feature-flag-scope.js';
import { FeatureFlagStrategy } from './feature-flag-strategy.js';
import { FeatureFlagUserList } from './feature-flag-user-list.js';
import { FeatureFlagsClient } from './feature-flags-client.js';

export const featureFlagEntities = [FeatureFlag, FeatureFlagStrategy, FeatureFlagScope, FeatureFlagUserList, FeatureFlagsClient, FeatureFlagInternalId];
