/**
 * GitLab's rules for who may push to, merge into, force-push and delete a branch, given a
 * project's protected branches and its default branch protection (Gitlab::UserAccess,
 * ProtectedBranch, Project#user_can_push_to_empty_repo?).
 */
import { wildcardMatches } from '@forgekit/kernel';
import { AccessLevel, type ProjectAccess } from '@forgekit/plugin-core/contracts';
import type { ProtectedBranch, ProtectionAction } from './protected-branch-store.js';

/** GitLab's refusal of a commit through the API to a branch the caller may not push to. */
export const PUSH_INTO_BRANCH = 'You are not allowed to push into this branch';

/** No one may do the action. */
export const NO_ACCESS = 0;
/** Only administrators may do the action. */
export const ADMIN_ACCESS = 60;
export const PROTECTION_ACCESS_LEVELS = [NO_ACCESS, AccessLevel.DEVELOPER, AccessLevel.MAINTAINER, ADMIN_ACCESS] as const;

/** The `default_branch_protection_defaults` hash: how a new default branch is protected. */
export interface BranchProtectionDefaults {
  allowed_to_push: { access_level: number }[];
  allowed_to_merge: { access_level: number }[];
  allow_force_push: boolean;
  developer_can_initial_push?: boolean;
}

/** The lowest role a defaults list lets in (Maintainer when the list is empty). */
const lowest = (levels: { access_level: number }[]) => (levels.length > 0 ? Math.min(...levels.map((level) => level.access_level)) : AccessLevel.MAINTAINER);

export const pushLevelOf = (defaults: BranchProtectionDefaults) => lowest(defaults.allowed_to_push);
export const mergeLevelOf = (defaults: BranchProtectionDefaults) => lowest(defaults.allowed_to_merge);

/** Whether the defaults protect at all (level 0, "not protected", lets Developers push, merge and force-push). */
export function protectsAtAll(defaults: BranchProtectionDefaults): boolean {
  return !(pushLevelOf(defaults) <= AccessLevel.DEVELOPER && mergeLevelOf(defaults) <= AccessLevel.DEVELOPER && defaults.allow_force_push);
}

/** Whether an empty repository's first push counts as a push to a protected branch (Developers may not push). */
export const protectsEmptyRepository = (defaults: BranchProtectionDefaults) => pushLevelOf(defaults) > AccessLevel.DEVELOPER;

/** The `default_branch_protection` level the defaults amount to (0 none … 4 protected after the initial push). */
export function protectionLevelOf(defaults: BranchProtectionDefaults): number {
  if (!protectsAtAll(defaults)) return 0;
  if (pushLevelOf(defaults) <= AccessLevel.DEVELOPER) return 1;
  if (defaults.developer_can_initial_push) return 4;
  return mergeLevelOf(defaults) <= AccessLevel.DEVELOPER ? 3 : 2;
}

/** A protected branch name or `*` pattern against a branch (`*` matches anything, `/` included). */
export const matchesBranch = (pattern: string, branch: string): boolean => wildcardMatches(pattern, branch);

/** Everything the rules need about one caller and one project. */
export interface PolicyInput {
  access: ProjectAccess;
  isAdmin: boolean;
  /** GitLab's `push_code` (Developer and up, repository open, not archived). */
  pushCode: boolean;
  protections: ProtectedBranch[];
  defaults: BranchProtectionDefaults;
  /** The repository has no branch yet. */
  empty: boolean;
}

export function branchPolicy(input: PolicyInput) {
  const { access, isAdmin, pushCode, protections, defaults, empty } = input;
  const matching = (branch: string) => protections.filter((protection) => matchesBranch(protection.name, branch));
  const allowed = (branch: string, action: ProtectionAction) =>
    matching(branch).some((protection) =>
      protection.rules[action].some(
        (rule) => rule.accessLevel !== NO_ACCESS && (rule.accessLevel === ADMIN_ACCESS ? isAdmin : access.level >= rule.accessLevel),
      ),
    );

  const policy = {
    matching,
    /** Protected by a rule, or (in an empty repository) by the default branch protection. */
    isProtected: (branch: string) => (empty && protectsEmptyRepository(defaults)) || matching(branch).length > 0,
    /** The first push into an empty repository: Maintainers, or Developers when the protection allows it. */
    canPushToEmptyRepository: () =>
      empty && pushCode && (!protectsEmptyRepository(defaults) || access.level > AccessLevel.DEVELOPER || !!defaults.developer_can_initial_push),
    canPush(branch: string): boolean {
      if (!pushCode) return false;
      if (!policy.isProtected(branch)) return true;
      return policy.canPushToEmptyRepository() || allowed(branch, 'push');
    },
    canMerge(branch: string): boolean {
      if (!pushCode) return false;
      return policy.isProtected(branch) ? allowed(branch, 'merge') : true;
    },
    canDelete(branch: string): boolean {
      if (!pushCode) return false;
      return policy.isProtected(branch) ? access.level >= AccessLevel.MAINTAINER : true;
    },
    /** Whether a rule of the branch allows force pushes (unprotected branches always do). */
    canForcePush: (branch: string) => !policy.isProtected(branch) || matching(branch).some((protection) => protection.allowForcePush),
    /** The Branch entity's `developers_can_push` / `developers_can_merge`. */
    developersCan: (branch: string, action: 'push' | 'merge') =>
      matching(branch).some((protection) => protection.rules[action].some((rule) => rule.accessLevel === AccessLevel.DEVELOPER)),
  };
  return policy;
}

export type BranchPolicy = ReturnType<typeof branchPolicy>;
