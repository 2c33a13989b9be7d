import { apiError, type RequestContext } from '@forgekit/kernel';
import { toIso } from '@forgekit/kernel/orm';

/**
 * GitLab's conditional delete: a record changed after the `If-Unmodified-Since`
 * time gives `412 Precondition Failed`. An unreadable header is ignored.
 */
export function requireUnmodifiedSince(ctx: RequestContext, updatedAt: unknown) {
  const header = ctx.header('if-unmodified-since');
  if (!header) return;
  const since = Date.parse(header);
  const changed = Date.parse(toIso(updatedAt) ?? '');
  if (!Number.isNaN(since) && changed > since) throw apiError(412, '412 Precondition Failed');
}
