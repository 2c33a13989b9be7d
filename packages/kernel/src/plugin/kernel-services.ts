import type { IdentityProvider } from '../auth/identity.js';
import type { Database } from '../db/open-database.js';
import type { EventBus } from '../services/events.js';
import type { FileStorage } from '../services/file-storage.js';
import type { JobService } from '../services/jobs.js';
import type { Logger } from '../services/logger.js';
import type { Metrics } from '../services/metrics.js';
import type { RateLimitService } from '../services/rate-limit.js';
import type { Secrets } from '../services/secrets.js';
import type { FragmentCache } from '../presented/fragment-cache.js';
import { kernelTokens } from './kernel-tokens.js';
import { createServiceRef } from './service-ref.js';

/** The kernel's own data a plugin may read (not its config sections). */
export interface InstanceInfo {
  /**
   * The URL clients reach the server at, without a trailing slash: the configured
   * `externalUrl`, or the server's own URL. Inside a request, `ctx.externalUrl` is the one
   * to link with: without a configured URL it follows the scheme and host the client used.
   */
  readonly externalUrl: string;
  readonly dataDir: string;
  readonly kernelVersion: string;
}

/** Request limits a plugin may tie to its own settings. */
export interface UploadLimits {
  /** Where the size limit of one uploaded file comes from (bytes); 100 MiB until a plugin sets it. */
  limitFileSize(read: () => Promise<number>): void;
}

/** Services every plugin may resolve without declaring them. */
export const kernelServices = {
  database: createServiceRef<Database>(kernelTokens.database),
  events: createServiceRef<EventBus>('kernel.events'),
  jobs: createServiceRef<JobService>('kernel.jobs'),
  rateLimits: createServiceRef<RateLimitService>('kernel.rate-limits'),
  files: createServiceRef<FileStorage>('kernel.files'),
  logger: createServiceRef<Logger>(kernelTokens.logger),
  instance: createServiceRef<InstanceInfo>(kernelTokens.instance),
  /** Seals values kept at rest (keys, credentials) with the instance's secrets key. */
  secrets: createServiceRef<Secrets>('kernel.secrets'),
  uploads: createServiceRef<UploadLimits>('kernel.uploads'),
  /** Prometheus metrics: `countWebhookDelivery(outcome)`, and a registry for a plugin's own metrics. */
  metrics: createServiceRef<Metrics>('kernel.metrics'),
  /** Presented entities' JSON kept by the versions of the rows they read (`present_cached`), bounded by `presentedCacheBytes`. */
  presented: createServiceRef<FragmentCache>('kernel.presented'),
  /** Provided by a plugin (the core plugin): token and user lookup for the kernel's auth. */
  identity: createServiceRef<IdentityProvider>('kernel.identity'),
};
