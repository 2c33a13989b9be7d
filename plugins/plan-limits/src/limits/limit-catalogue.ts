/**
 * Every limit the instance knows, with the value a plan has until an administrator
 * changes it. The API shows and accepts the public limits; the internal ones exist
 * for plugins that enforce them (as GitLab keeps more limits than it exposes).
 */

/** Plan names `plan_name` accepts (GitLab's plans, default first). */
export const PLAN_NAMES = [
  'default',
  'free',
  'bronze',
  'silver',
  'premium',
  'gold',
  'ultimate',
  'ultimate_trial',
  'ultimate_trial_paid_customer',
  'premium_trial',
  'opensource',
] as const;

export type PlanName = (typeof PLAN_NAMES)[number];
export const DEFAULT_PLAN: PlanName = 'default';

/** Public limits in the order GET /application/plan_limits shows them. */
export const PUBLIC_LIMITS = {
  ci_instance_level_variables: 25,
  ci_pipeline_size: 0,
  ci_active_jobs: 0,
  ci_project_subscriptions: 2,
  ci_pipeline_schedules: 10,
  ci_needs_size_limit: 50,
  ci_registered_group_runners: 1000,
  ci_registered_project_runners: 1000,
  dotenv_size: 5120,
  dotenv_variables: 20,
  conan_max_file_size: 3221225472,
  enforcement_limit: 10000,
  generic_packages_max_file_size: 5368709120,
  helm_max_file_size: 5242880,
  notification_limit: 10000,
  maven_max_file_size: 3221225472,
  npm_max_file_size: 524288000,
  nuget_max_file_size: 524288000,
  pipeline_hierarchy_size: 1000,
  pypi_max_file_size: 3221225472,
  terraform_module_max_file_size: 1073741824,
  storage_size_limit: 15000,
  web_hook_calls: 0,
} as const satisfies Record<string, number>;

export type PublicLimit = keyof typeof PUBLIC_LIMITS;
export const PUBLIC_LIMIT_NAMES = Object.keys(PUBLIC_LIMITS) as PublicLimit[];

/** Limits plugins enforce that the API neither shows nor changes. */
export const INTERNAL_LIMITS = {
  project_ci_variables: 8000,
  group_ci_variables: 30000,
  project_feature_flags: 200,
  project_hooks: 100,
  group_hooks: 50,
  pipeline_triggers: 25000,
  ci_active_pipelines: 0,
  ci_daily_pipeline_schedule_triggers: 0,
  ci_pipeline_deployments: 500,
  ci_jobs_trace_size_limit: 100,
  project_ci_secure_files: 100,
  project_access_token_limit: 0,
  offset_pagination_limit: 50000,
  pages_file_entries: 200000,
  golang_max_file_size: 104857600,
  debian_max_file_size: 3221225472,
  rubygems_max_file_size: 3221225472,
  web_hook_calls_mid: 0,
  web_hook_calls_low: 0,
} as const satisfies Record<string, number>;

const DEFAULTS: Readonly<Record<string, number>> = { ...PUBLIC_LIMITS, ...INTERNAL_LIMITS };

/** A limit's value before any change, or undefined for a name no plan has. */
export function defaultLimit(name: string): number | undefined {
  return Object.hasOwn(DEFAULTS, name) ? DEFAULTS[name] : undefined;
}

export const isPlanName = (name: string): name is PlanName => (PLAN_NAMES as readonly string[]).includes(name);

/** Limits that, as in GitLab, may not be negative. */
export const NON_NEGATIVE_LIMITS: readonly PublicLimit[] = ['notification_limit', 'enforcement_limit'];

/** GitLab's text for a reached limit: the limit's name in words and its value. */
export const limitExceededMessage = (name: string, limit: number) => `Maximum number of ${name.replaceAll('_', ' ')} (${limit}) exceeded`;
