import type { Principal } from '@forgekit/kernel';
import type { ProjectAccess } from '../contracts.js';
import { AccessLevel } from '../shared/levels.js';

/**
 * Whether a project feature (`issues_access_level`, `wiki_access_level`...) is open to the
 * caller: never when disabled, to members and admins only when private.
 */
export function projectFeatureOpen(level: string, projectAccess: ProjectAccess, user: Principal | null): boolean {
  if (level === 'disabled') return false;
  if (level !== 'private') return true;
  return !!user?.isAdmin || Math.max(projectAccess.projectLevel ?? 0, projectAccess.groupLevel ?? 0) >= AccessLevel.GUEST;
}
