import { FeatureFlagEntity } from './feature-flag.js';
import { FeatureFlagInternalIdEntity } from './feature-flag-internal-id.js';
import { FeatureFlagScopeEntity } from './feature-flag-scope.js';
import { FeatureFlagStrategyEntity } from './feature-flag-strategy.js';
import { FeatureFlagUserListEntity } from './feature-flag-user-list.js';
import { FeatureFlagsClientEntity } from './feature-flags-client.js';

export const featureFlagEntities = [
  FeatureFlagEntity,
  FeatureFlagStrategyEntity,
  FeatureFlagScopeEntity,
  FeatureFlagUserListEntity,
  FeatureFlagsClientEntity,
  FeatureFlagInternalIdEntity,
];
