/**
 * GitLab's one list of CI statuses (`HasStatus::AVAILABLE_STATUSES`), shared by pipelines and
 * jobs: what their `status` filters accept, in GitLab's order.
 */
export const CI_STATUSES = [
  'created',
  'waiting_for_resource',
  'preparing',
  'waiting_for_callback',
  'pending',
  'running',
  'success',
  'failed',
  'canceling',
  'canceled',
  'skipped',
  'manual',
  'scheduled',
] as const;

export type CiStatus = (typeof CI_STATUSES)[number];

/** The statuses of a pipeline or job that has finished (`HasStatus::COMPLETED_STATUSES`). */
export const COMPLETED_CI_STATUSES = ['success', 'failed', 'canceled', 'skipped'] as const satisfies readonly CiStatus[];
