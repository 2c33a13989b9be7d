import { visibilityName } from '../shared/levels.js';
import type { Namespace } from '../contracts.js';
import { readGroupSettings } from './group-settings.js';

const rule = (level: number) => [{ access_level: level }];

/** The structured form of a `default_branch_protection` level, as GitLab derives it. */
export function branchProtectionDefaults(level: number) {
  switch (level) {
    case 0:
      return { allowed_to_push: rule(30), allow_force_push: true, allowed_to_merge: rule(30) };
    case 1:
      return { allowed_to_push: rule(30), allow_force_push: false, allowed_to_merge: rule(40) };
    case 3:
      return { allowed_to_push: rule(40), allow_force_push: false, allowed_to_merge: rule(30) };
    case 4:
      return { allowed_to_push: rule(40), allow_force_push: false, allowed_to_merge: rule(40), developer_can_initial_push: true };
    default:
      return { allowed_to_push: rule(40), allow_force_push: false, allowed_to_merge: rule(40) };
  }
}

/** GitLab's Group entity. */
export function presentGroup(group: Namespace, externalUrl: string) {
  const settings = readGroupSettings(group.settings);
  return {
    id: group.id,
    web_url: `${externalUrl}/groups/${group.fullPath}`,
    name: group.name,
    path: group.path,
    description: group.description,
    visibility: visibilityName(group.visibilityLevel),
    share_with_group_lock: settings.share_with_group_lock,
    require_two_factor_authentication: settings.require_two_factor_authentication,
    two_factor_grace_period: settings.two_factor_grace_period,
    project_creation_level: settings.project_creation_level,
    auto_devops_enabled: settings.auto_devops_enabled,
    subgroup_creation_level: settings.subgroup_creation_level,
    emails_disabled: !settings.emails_enabled,
    emails_enabled: settings.emails_enabled,
    mentions_disabled: settings.mentions_disabled,
    lfs_enabled: settings.lfs_enabled,
    archived: false,
    default_branch: settings.default_branch,
    default_branch_protection: settings.default_branch_protection,
    default_branch_protection_defaults: branchProtectionDefaults(settings.default_branch_protection),
    avatar_url: null,
    request_access_enabled: settings.request_access_enabled,
    full_name: group.fullName,
    full_path: group.fullPath,
    created_at: group.createdAt.toISOString(),
    parent_id: group.parentId,
    organization_id: 1,
    shared_runners_setting: settings.shared_runners_setting,
    max_artifacts_size: settings.max_artifacts_size,
    marked_for_deletion_on: null,
  };
}
