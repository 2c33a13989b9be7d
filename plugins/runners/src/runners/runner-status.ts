/** Runner status from `contacted_at` and `created_at`, with GitLab's thresholds. */
import { toBool, toIso } from '@forgekit/kernel/orm';
import type { RunnerRow } from './runner-row.js';

/** A runner that contacted the server within this window is online. */
export const ONLINE_CONTACT_TIMEOUT_MS = 2 * 60 * 60 * 1000;
/** A runner created and not contacted within this window is stale. */
export const STALE_TIMEOUT_MS = 7 * 24 * 60 * 60 * 1000;

export const onlineDeadline = (now = Date.now()) => new Date(now - ONLINE_CONTACT_TIMEOUT_MS);
export const staleDeadline = (now = Date.now()) => new Date(now - STALE_TIMEOUT_MS);

const timeOf = (value: unknown) => {
  const iso = toIso(value);
  return iso === null ? null : Date.parse(iso);
};

export function isOnline(runner: Pick<RunnerRow, 'contacted_at'>, now = Date.now()): boolean {
  const contacted = timeOf(runner.contacted_at);
  return contacted !== null && contacted > onlineDeadline(now).getTime();
}

export function isStale(runner: Pick<RunnerRow, 'contacted_at' | 'created_at'>, now = Date.now()): boolean {
  const deadline = staleDeadline(now).getTime();
  const created = timeOf(runner.created_at);
  const contacted = timeOf(runner.contacted_at);
  return created !== null && created <= deadline && (contacted === null || contacted <= deadline);
}

/** The `status` field: stale, then never contacted, then paused, then online or offline. */
export function restStatus(runner: Pick<RunnerRow, 'contacted_at' | 'created_at' | 'active'>, now = Date.now()): string {
  if (isStale(runner, now)) return 'stale';
  if (runner.contacted_at === null || runner.contacted_at === undefined) return 'never_contacted';
  if (!toBool(runner.active)) return 'paused';
  return isOnline(runner, now) ? 'online' : 'offline';
}
