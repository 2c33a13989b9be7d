import type { IdentityProvider } from '../auth/identity.js';
import type { Database } from '../db/open-database.js';
import type { EventBus } from '../services/events.js';
import type { FileStorage } from '../services/file-storage.js';
import type { JobService } from '../services/jobs.js';
import type { Logger } from '../services/logger.js';
import type { RateLimitService } from '../services/rate-limit.js';
import { createServiceRef } from './service-ref.js';

/** The kernel's own data a plugin may read (not its config sections). */
export interface InstanceInfo {
  /** The URL clients reach the server at, without a trailing slash. */
  readonly externalUrl: string;
  readonly dataDir: string;
  readonly kernelVersion: string;
}

/** Services every plugin may resolve without declaring them. */
export const coreServices = {
  database: createServiceRef<Database>('core.database'),
  events: createServiceRef<EventBus>('core.events'),
  jobs: createServiceRef<JobService>('core.jobs'),
  rateLimits: createServiceRef<RateLimitService>('core.rate-limits'),
  files: createServiceRef<FileStorage>('core.files'),
  logger: createServiceRef<Logger>('core.logger'),
  instance: createServiceRef<InstanceInfo>('core.instance'),
  /** Provided by a plugin (plugin-core): token and user lookup for the kernel's auth. */
  identity: createServiceRef<IdentityProvider>('core.identity'),
};
