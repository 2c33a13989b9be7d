/** GitLab's PipelineSchedule and PipelineScheduleDetails entities, and the schedule Variable. */
import { type User, userBasic } from '@forgekit/plugin-core/contracts';
import type { PipelineScheduleRow } from '../entities/pipeline-schedule.js';
import type { PipelineScheduleInputRow } from '../entities/pipeline-schedule-input.js';
import type { PipelineScheduleVariableRow } from '../entities/pipeline-schedule-variable.js';

export function scheduleEntity(row: PipelineScheduleRow, owner: User | undefined, inputs: readonly PipelineScheduleInputRow[], externalUrl: string) {
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
    owner: owner ? userBasic(owner, externalUrl) : null,
    inputs: inputs.map((input) => ({ name: input.name, value: input.value })),
  };
}

export function scheduleVariableEntity(row: PipelineScheduleVariableRow) {
  return { variable_type: row.variableType, key: row.key, value: row.value, raw: row.raw };
}
