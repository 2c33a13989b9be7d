/** GitLab's PipelineSchedule and PipelineScheduleDetails entities, and the schedule Variable. */
import { toBool, toIso } from '@forgekit/kernel/orm';
import { userBasic, type UserRow } from '@forgekit/plugin-core';
import type { ScheduleInputRow, ScheduleRow, ScheduleVariableRow } from '../shared/rows.js';

export function scheduleEntity(row: ScheduleRow, owner: UserRow | undefined, inputs: readonly ScheduleInputRow[], externalUrl: string) {
  return {
    id: row.id,
    description: row.description,
    ref: row.ref,
    cron: row.cron,
    cron_timezone: row.cron_timezone,
    next_run_at: toIso(row.next_run_at),
    active: toBool(row.active),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
    owner: owner ? userBasic(owner, externalUrl) : null,
    inputs: inputs.map((input) => ({ name: input.name, value: JSON.parse(input.value) as unknown })),
  };
}

export function scheduleVariableEntity(row: ScheduleVariableRow) {
  return { variable_type: row.variable_type, key: row.key, value: row.value, raw: toBool(row.raw) };
}
