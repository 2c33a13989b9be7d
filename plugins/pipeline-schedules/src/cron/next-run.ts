import { nextOccurrence } from './cron-expression.js';
import { ianaZoneFor } from './time-zone.js';

/**
 * When a schedule runs next: the cron's next occurrence after `now` in the
 * schedule's zone. With `workerCron` (the scheduler's own cadence, in UTC) the time
 * moves to the scheduler tick that will fire it, as GitLab reports it: the ideal
 * time when it is exactly the scheduler's next tick, else the first tick after it.
 */
export function nextRunAt(cron: string, cronTimezone: string, now: Date, workerCron?: string): Date | null {
  const zone = ianaZoneFor(cronTimezone);
  const ideal = zone ? nextOccurrence(cron, zone, now) : null;
  if (!ideal || !workerCron) return ideal;
  const workerNext = nextOccurrence(workerCron, 'UTC', now);
  if (workerNext && workerNext.getTime() === ideal.getTime()) return ideal;
  return nextOccurrence(workerCron, 'UTC', ideal) ?? ideal;
}
