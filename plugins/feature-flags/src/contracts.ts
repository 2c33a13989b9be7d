/** What other plugins and hosts may use of feature flags: the Unleash client service. */
import { createServiceRef } from '@forgekit/kernel';

/** How instance ids (the credential Unleash SDKs present) begin. */
export const CLIENT_TOKEN_PREFIX = 'fkffct-';

export interface FeatureFlagsClientService {
  /** The project's instance id, created on first use (404 for an unknown project). */
  tokenFor(projectId: number): Promise<string>;
  /** Replaces the instance id; SDKs still sending the old one get 401 from then on. */
  resetToken(projectId: number): Promise<string>;
  /** Whether `token` is the project's instance id. */
  verify(projectId: number, token: string): Promise<boolean>;
  /** The URL an Unleash SDK is configured with for the project. */
  apiUrl(projectId: number): string;
}

/** A project's Unleash instance id and API URL, for whoever configures an SDK. */
export const featureFlagsClientRef = createServiceRef<FeatureFlagsClientService>('feature-flags.client');
