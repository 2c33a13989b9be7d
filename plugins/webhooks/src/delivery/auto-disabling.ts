/**
 * GitLab's auto-disabling of failing hooks (behind the `auto_disabling_web_hooks` setting, off by
 * default as on self-managed GitLab): from the fourth failure in a row a hook waits 1, 2, 4 …
 * minutes (at most a day) before its next delivery; past 39 failures it stays disabled until
 * an edit or a passing test.
 */
export const FAILURE_THRESHOLD = 3;
export const PERMANENT_FAILURES = 39;
const MAX_FAILURES = 40;
const MAX_BACKOFF_MS = 24 * 60 * 60 * 1000;

interface Health {
  recentFailures: number;
  disabledUntil: Date | null;
}

export function alertStatus(hook: Health, enabled: boolean, now = new Date()) {
  if (!enabled) return 'executable';
  if (hook.recentFailures > PERMANENT_FAILURES) return 'disabled';
  if (hook.recentFailures > FAILURE_THRESHOLD && hook.disabledUntil && hook.disabledUntil > now) return 'temporarily_disabled';
  return 'executable';
}

export const executable = (hook: Health, enabled: boolean) => alertStatus(hook, enabled) === 'executable';

/** The health after one delivery. */
export function afterDelivery(hook: Health, success: boolean, now = new Date()): Health {
  if (success) return { recentFailures: 0, disabledUntil: null };
  const before = hook.recentFailures;
  const recentFailures = Math.min(before + 1, MAX_FAILURES);
  if (recentFailures <= FAILURE_THRESHOLD) return { recentFailures, disabledUntil: null };
  const backoff = Math.min(60_000 * 2 ** Math.max(0, before - FAILURE_THRESHOLD), MAX_BACKOFF_MS);
  return { recentFailures, disabledUntil: new Date(now.getTime() + backoff) };
}
