/** Runner status from `contacted_at` and `created_at`, with GitLab's thresholds. */
import type { RunnerRow } from './runner-row.js';

/** A runner that contacted the server within this window is online. */
export const ONLINE_CONTACT_TIMEOUT_MS = 2 * 60 * 60 * 1000;
/** A runner created and not contacted within this window is stale. */
export const STALE_TIMEOUT_MS = 7 * 24 * 60 * 60 * 1000;

export const onlineDeadline = (now = Date.now()) => new Date(now - ONLINE_CONTACT_TIMEOUT_MS);
export const staleDeadline = (now = Date.now()) => new Date(now - STALE_TIMEOUT_MS);

type Times = Pick<RunnerRow, 'contactedAt' | 'createdAt'>;

export function isOnline(runner: Pick<RunnerRow, 'contactedAt'>, now = Date.now()): boolean {
  return !!runner.contactedAt && runner.contactedAt.getTime() > onlineDeadline(now).getTime();
}

export function isStale(runner: Times, now = Date.now()): boolean {
  const deadline = staleDeadline(now).getTime();
  const contacted = runner.contactedAt?.getTime() ?? null;
  return runner.createdAt.getTime() <= deadline && (contacted === null || contacted <= deadline);
}

/** The `status` field: stale, then never contacted, then paused, then online or offline. */
export function restStatus(runner: Times & Pick<RunnerRow, 'active'>, now = Date.now()): string {
  if (isStale(runner, now)) return 'stale';
  if (!runner.contactedAt) return 'never_contacted';
  if (!runner.active) return 'paused';
  return isOnline(runner, now) ? 'online' : 'offline';
}
