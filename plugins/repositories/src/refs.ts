/** The repository service other plugins (wikis, snippets, submodules, storage moves) use. */
import { createServiceRef } from '@forgekit/kernel';
import type { BranchProtection } from './protected-branches/branch-protection.js';
import type { RepositoryService } from './storage/repository-service.js';

export const repositoriesServiceRef = createServiceRef<RepositoryService>('repositories.service');

/**
 * Who may push to, merge into, force-push or delete a branch of a project:
 * `isProtected(project, branch)`, `canPush(user, project, branch)`, `canMerge`, `canDelete`,
 * `canForcePush(project, branch)`, and `policyFor(user, project)` for several checks at once.
 */
export const branchProtectionRef = createServiceRef<BranchProtection>('repositories.branch-protection');
