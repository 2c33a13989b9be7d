/** Project settings kept in the `settings` JSON column, with GitLab's defaults. */
export const PROJECT_SETTING_DEFAULTS = {
  issues_access_level: 'enabled',
  repository_access_level: 'enabled',
  merge_requests_access_level: 'enabled',
  forking_access_level: 'enabled',
  wiki_access_level: 'enabled',
  builds_access_level: 'enabled',
  snippets_access_level: 'enabled',
  pages_access_level: 'private',
  analytics_access_level: 'enabled',
  container_registry_access_level: 'enabled',
  security_and_compliance_access_level: 'private',
  releases_access_level: 'enabled',
  environments_access_level: 'enabled',
  feature_flags_access_level: 'enabled',
  infrastructure_access_level: 'enabled',
  monitor_access_level: 'enabled',
  model_experiments_access_level: 'enabled',
  model_registry_access_level: 'enabled',
  emails_enabled: true,
  shared_runners_enabled: true,
  lfs_enabled: true,
  request_access_enabled: true,
  only_allow_merge_if_pipeline_succeeds: false,
  allow_merge_on_skipped_pipeline: null as boolean | null,
  only_allow_merge_if_all_discussions_are_resolved: false,
  remove_source_branch_after_merge: true,
  printing_merge_request_link_enabled: true,
  resolve_outdated_diff_discussions: false,
  merge_method: 'merge',
  squash_option: 'default_off',
  ci_config_path: null as string | null,
  public_jobs: true,
  build_timeout: 3600,
  auto_devops_enabled: false,
  autoclose_referenced_issues: true,
  packages_enabled: true,
  service_desk_enabled: false,
};

export type ProjectSettings = typeof PROJECT_SETTING_DEFAULTS;

export const ACCESS_LEVEL_SETTINGS = Object.keys(PROJECT_SETTING_DEFAULTS).filter((key) => key.endsWith('_access_level'));

/** Settings are only read, so a project without overrides shares the defaults object itself. */
export function readProjectSettings(json: string): Readonly<ProjectSettings> {
  if (!json || json === '{}') return PROJECT_SETTING_DEFAULTS;
  return { ...PROJECT_SETTING_DEFAULTS, ...JSON.parse(json) };
}
