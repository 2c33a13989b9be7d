/** GitLab's PipelineSchedule and PipelineScheduleDetails entities, and the schedule Variable. */
import type { UserRow } from '@forgekit/plugin-core/contracts';
import type { PipelineScheduleRow } from '../entities/pipeline-schedule.js';
import type { PipelineScheduleInputRow } from '../entities/pipeline-schedule-input.js';
import type { PipelineScheduleVariableRow } from '../entities/pipeline-schedule-variable.js';

/** GitLab's UserBasic entity, for the schedule owner. */
export const ownerEntity = (user: UserRow, externalUrl: string) => ({
  id: user.id,
  username: user.username,
  public_email: user.public_email ?? null,
  name: user.name,
  state: user.state,
  locked: false,
  avatar_url: null,
  web_url: `${externalUrl}/${user.username}`,
});

export function scheduleEntity(row: PipelineScheduleRow, owner: UserRow | undefined, inputs: readonly PipelineScheduleInputRow[], externalUrl: string) {
  return {
    id: row.id,
    description: row.description,
    ref: row.ref,
    cron: row.cron,
    cron_timezone: row.cronTimezone,
    next_run_at: row.nextRunAt.toISOString(),
    active: row.active,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    owner: owner ? ownerEntity(owner, externalUrl) : null,
    inputs: inputs.map((input) => ({ name: input.name, value: input.value })),
  };
}

export function scheduleVariableEntity(row: PipelineScheduleVariableRow) {
  return { variable_type: row.variableType, key: row.key, value: row.value, raw: row.raw };
}
