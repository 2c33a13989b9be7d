/** Group settings kept in the namespace's `settings` JSON column, with GitLab's defaults. */
export const GROUP_SETTING_DEFAULTS = {
  share_with_group_lock: false,
  require_two_factor_authentication: false,
  two_factor_grace_period: 48,
  project_creation_level: 'developer',
  auto_devops_enabled: null as boolean | null,
  subgroup_creation_level: 'maintainer',
  emails_enabled: true,
  mentions_disabled: null as boolean | null,
  lfs_enabled: true,
  default_branch: null as string | null,
  default_branch_protection: 2,
  request_access_enabled: true,
  shared_runners_setting: 'enabled',
  max_artifacts_size: null as number | null,
  prevent_sharing_groups_outside_hierarchy: false,
};

export type GroupSettings = typeof GROUP_SETTING_DEFAULTS;

export function readGroupSettings(json: string): GroupSettings {
  return { ...GROUP_SETTING_DEFAULTS, ...(json ? JSON.parse(json) : {}) };
}
