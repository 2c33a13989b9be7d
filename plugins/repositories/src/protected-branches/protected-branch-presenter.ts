/** GitLab's ProtectedBranch entity. */
import type { AccessRule, ProtectedBranch } from './protected-branch-store.js';

/** How GitLab names each access level (ProtectedRefAccess#humanize). */
const DESCRIPTIONS: Record<number, string> = { 0: 'No one', 30: 'Developers + Maintainers', 40: 'Maintainers', 60: 'Administrators' };

const accessLevel = (rule: AccessRule) => ({
  id: rule.id,
  access_level: rule.accessLevel,
  access_level_description: DESCRIPTIONS[rule.accessLevel] ?? String(rule.accessLevel),
  user_id: null,
  group_id: null,
});

export function protectedBranchEntity(branch: ProtectedBranch) {
  return {
    id: branch.id,
    name: branch.name,
    push_access_levels: branch.rules.push.map((rule) => ({ ...accessLevel(rule), deploy_key_id: null })),
    merge_access_levels: branch.rules.merge.map(accessLevel),
    unprotect_access_levels: branch.rules.unprotect.map(accessLevel),
    allow_force_push: branch.allowForcePush,
    code_owner_approval_required: branch.codeOwnerApprovalRequired,
  };
}
