/** Rows as this plugin's tables hold them (snake_case, raw driver values). */
export interface ScheduleRow {
  id: number;
  project_id: number;
  owner_id: number | null;
  description: string;
  ref: string;
  cron: string;
  cron_timezone: string;
  next_run_at: unknown;
  active: unknown;
  created_at: unknown;
  updated_at: unknown;
}

export interface ScheduleVariableRow {
  id: number;
  pipeline_schedule_id: number;
  key: string;
  value: string;
  variable_type: string;
  raw: unknown;
  created_at: unknown;
  updated_at: unknown;
}

export interface ScheduleInputRow {
  id: number;
  pipeline_schedule_id: number;
  name: string;
  /** JSON text. */
  value: string;
}

export interface PipelineRow {
  id: number;
  project_id: number;
  iid: number;
  pipeline_schedule_id: number | null;
  user_id: number | null;
  status: string;
  source: string;
  ref: string;
  tag: unknown;
  sha: string | null;
  created_at: unknown;
  updated_at: unknown;
}
