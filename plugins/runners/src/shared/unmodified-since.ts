import { apiError, type RequestContext } from '@forgekit/kernel';
import { toIso } from '@forgekit/kernel/orm';

/** GitLab's `destroy_conditionally!`: 412 when the record changed after `If-Unmodified-Since`. */
export function checkUnmodifiedSince(ctx: RequestContext, updatedAt: unknown) {
  const header = ctx.header('if-unmodified-since');
  if (!header) return;
  const since = Date.parse(header);
  const modified = toIso(updatedAt);
  if (Number.isNaN(since) || !modified) return;
  if (Date.parse(modified) > since) throw apiError(412, '412 Precondition Failed');
}
