/** Services this plugin provides to other plugins and hosts. */
import { createServiceRef } from '@forgekit/kernel';
import type { FeatureFlagsClientService } from './unleash/feature-flags-client-service.js';

/** A project's Unleash instance id and API URL, for whoever configures an SDK. */
export const featureFlagsClientRef = createServiceRef<FeatureFlagsClientService>('feature-flags.client');
