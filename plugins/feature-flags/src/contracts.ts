/** What other plugins and hosts may use of feature flags: the Unleash client service. */
import { createServiceRef } from '@forgekit/kernel';
import type { FeatureFlagsClientService } from './unleash/feature-flags-client-service.js';

export type { FeatureFlagsClientService } from './unleash/feature-flags-client-service.js';
export { CLIENT_TOKEN_PREFIX } from './unleash/feature-flags-client-service.js';

/** A project's Unleash instance id and API URL, for whoever configures an SDK. */
export const featureFlagsClientRef = createServiceRef<FeatureFlagsClientService>('feature-flags.client');
