/**
 * Branch protection for a project: its protected branches, the default branch protection
 * of its namespace (the group's `default_branch_protection`, else the instance's), and the
 * rules built from both. Other plugins (merge requests, suggestions) use it through
 * `branchProtectionRef`.
 */
import type { Principal } from '@forgekit/kernel';
import {
  AccessLevel,
  type AccessService,
  type GroupService,
  type ProjectAccess,
  type ProjectService,
  type Project,
  type SettingsService,
} from '@forgekit/plugin-core/contracts';
import { branchProtectionDefaults } from '@forgekit/plugin-core/contracts';
import { canPushCode } from '../shared/project-repository.js';
import type { RepositoryHandle, RepositoryService } from '../storage/repository-service.js';
import { branchPolicy, matchesBranch, mergeLevelOf, protectsAtAll, pushLevelOf, type BranchPolicy, type BranchProtectionDefaults } from './branch-policy.js';
import type { ProtectedBranchStore } from './protected-branch-store.js';

export const DEFAULT_BRANCH_PROTECTION_DEFAULTS_KEY = 'default_branch_protection_defaults';

/** A group's own `default_branch_protection`, when it has one. */
function groupLevel(settingsJson: string | null | undefined): number | undefined {
  try {
    const level = (settingsJson ? JSON.parse(settingsJson) : {}).default_branch_protection;
    return typeof level === 'number' ? level : undefined;
  } catch {
    return undefined;
  }
}

export function createBranchProtection(deps: {
  store: ProtectedBranchStore;
  access: AccessService;
  projects: ProjectService;
  groups: GroupService;
  settings: SettingsService;
  repos: RepositoryService;
}) {
  const { store, access: accessService, projects, groups, settings, repos } = deps;

  async function defaultsFor(project: Project): Promise<BranchProtectionDefaults> {
    if (project.namespace.kind === 'group') {
      const level = groupLevel((await groups.findById(project.namespaceId))?.settings);
      if (level !== undefined) return branchProtectionDefaults(level);
    }
    return (await settings.get(DEFAULT_BRANCH_PROTECTION_DEFAULTS_KEY)) as BranchProtectionDefaults;
  }

  /** The rules for one caller on one project (the repository and access looked up unless given). */
  async function policyFor(
    user: Principal | null,
    project: Project,
    known: { access?: ProjectAccess; repository?: RepositoryHandle | null } = {},
  ): Promise<BranchPolicy> {
    const [access, repository, protections, defaults] = await Promise.all([
      known.access ?? accessService.projectAccess(user, project),
      known.repository !== undefined ? known.repository : repos.find({ kind: 'project', containerId: project.id }),
      store.forProject(project.id),
      defaultsFor(project),
    ]);
    const empty = !repository || !(await repos.hasBranches(repository));
    return branchPolicy({ access, isAdmin: !!user?.isAdmin, pushCode: canPushCode(projects, access, user), protections, defaults, empty });
  }

  return {
    defaultsFor,
    policyFor,

    /**
     * Protects a project's new default branch as its namespace's default branch protection
     * says (GitLab's Projects::ProtectDefaultBranchService), unless a rule covers it already.
     */
    async protectDefaultBranch(project: Project, branch: string): Promise<void> {
      const defaults = await defaultsFor(project);
      if (!protectsAtAll(defaults)) return;
      if ((await store.forProject(project.id)).some((protection) => matchesBranch(protection.name, branch))) return;
      await store.create(project.id, {
        name: branch,
        allowForcePush: defaults.allow_force_push,
        codeOwnerApprovalRequired: false,
        levels: { push: [pushLevelOf(defaults)], merge: [mergeLevelOf(defaults)], unprotect: [AccessLevel.MAINTAINER] },
      });
    },

    async isProtected(project: Project, branch: string) {
      return (await policyFor(null, project)).isProtected(branch);
    },
    async canPush(user: Principal | null, project: Project, branch: string) {
      return (await policyFor(user, project)).canPush(branch);
    },
    async canMerge(user: Principal | null, project: Project, branch: string) {
      return (await policyFor(user, project)).canMerge(branch);
    },
    async canDelete(user: Principal | null, project: Project, branch: string) {
      return (await policyFor(user, project)).canDelete(branch);
    },
    /** Whether a force push to the branch is allowed (for anyone who may push to it). */
    async canForcePush(project: Project, branch: string) {
      return (await policyFor(null, project)).canForcePush(branch);
    },
  };
}

export type BranchProtection = ReturnType<typeof createBranchProtection>;
