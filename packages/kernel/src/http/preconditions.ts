import { apiError } from './errors.js';

/**
 * GitLab's `check_unmodified_since!`: 412 when the resource changed after the time the
 * client sent in `If-Unmodified-Since`. An absent or unreadable header lets the request through.
 */
export function checkUnmodifiedSince(header: string | undefined, updatedAt: Date | string): void {
  if (!header) return;
  const since = Date.parse(header);
  if (Number.isNaN(since)) return;
  const updated = updatedAt instanceof Date ? updatedAt.getTime() : Date.parse(updatedAt);
  if (updated > since) throw apiError(412, '412 Precondition Failed');
}
