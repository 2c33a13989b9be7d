/** Runner rows as the tables hold them, and the fixed vocabularies of the runner API. */
export const RUNNER_TYPES = ['instance_type', 'group_type', 'project_type'] as const;
export type RunnerType = (typeof RUNNER_TYPES)[number];

export const ACCESS_LEVELS = ['not_protected', 'ref_protected'] as const;

/** The digit GitLab puts in a runner token (`t1_`, `t2_`, `t3_`). */
export const TYPE_DIGIT: Record<RunnerType, number> = { instance_type: 1, group_type: 2, project_type: 3 };

export interface RunnerRow {
  id: number;
  runner_type: RunnerType;
  registration_type: 'registration_token' | 'authenticated_user';
  token_digest: string;
  token_expires_at: unknown;
  name: string | null;
  description: string | null;
  active: unknown;
  run_untagged: unknown;
  locked: unknown;
  access_level: string;
  maximum_timeout: number | null;
  maintenance_note: string | null;
  contacted_at: unknown;
  creator_id: number | null;
  group_id: number | null;
  owner_project_id: number | null;
  created_at: unknown;
  updated_at: unknown;
}

export interface RunnerManagerRow {
  id: number;
  runner_id: number;
  system_xid: string;
  version: string | null;
  revision: string | null;
  platform: string | null;
  architecture: string | null;
  ip_address: string | null;
  contacted_at: unknown;
  created_at: unknown;
  updated_at: unknown;
}
