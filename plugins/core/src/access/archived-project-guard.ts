/**
 * An archived project is read-only: every write to what lives in it (issues, labels,
 * files, variables …) answers 403, as GitLab's project policy prevents creating, updating
 * and deleting the archived features. One guard over the route table holds the rule for
 * every plugin; routes that administer the project itself (its settings, members,
 * archiving, protected branches, storage) name it in `exemptFrom`.
 */
import { forbidden, type RouteGuard } from '@forgekit/kernel';
import type { AccessService } from '../contracts.js';

export const ARCHIVED_PROJECT_GUARD = 'core.archived-project';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// Unanchored: a host may mount the API under a base path.
const UNDER_A_PROJECT = /\/api\/v4\/projects\/:id\//;

export function archivedProjectGuard(access: Pick<AccessService, 'lookUpForRequest'>): RouteGuard {
  return {
    name: ARCHIVED_PROJECT_GUARD,
    applies: (route) => WRITES.has(route.method) && UNDER_A_PROJECT.test(route.path),
    async check(ctx) {
      // The route's own lookup of the project takes this one over.
      const found = await access.lookUpForRequest(ctx.user, ctx.params.id ?? '');
      // A project the caller cannot see is left to the route, which answers 404.
      if (found?.canRead && found.project.archived) throw forbidden();
    },
  };
}
