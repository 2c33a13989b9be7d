/** Variables of a schedule, passed to the pipelines it starts. */
import type { Database } from '@forgekit/kernel';
import { unlessTaken } from '@forgekit/kernel/orm';
import { PipelineScheduleVariable, type PipelineScheduleVariableRow, type ScheduleVariableType } from '../entities/pipeline-schedule-variable.js';

export function createScheduleVariableStore(database: Database) {
  const ofSchedule = (scheduleId: number) => database.legacy.from(PipelineScheduleVariable).where('pipeline_schedule_id', scheduleId);

  return {
    list: (scheduleId: number): Promise<PipelineScheduleVariableRow[]> => database.legacy.rows(PipelineScheduleVariable, ofSchedule(scheduleId).orderBy('id')),
    find: (scheduleId: number, key: string): Promise<PipelineScheduleVariableRow | undefined> =>
      database.legacy.row(PipelineScheduleVariable, ofSchedule(scheduleId).where('key', key)),

    /** The new variable, or null when the schedule already has one with this key. */
    async insert(scheduleId: number, values: { key: string; value: string; variableType: ScheduleVariableType }): Promise<PipelineScheduleVariableRow | null> {
      const now = new Date();
      const row = { pipelineScheduleId: scheduleId, ...values, raw: false, createdAt: now, updatedAt: now };
      const id = await unlessTaken(database.legacy.em().insert<PipelineScheduleVariableRow>(PipelineScheduleVariable, row), () => null);
      return id === null ? null : { id: Number(id), ...row };
    },

    async update(variable: PipelineScheduleVariableRow, values: { value?: string; variableType?: ScheduleVariableType }): Promise<PipelineScheduleVariableRow> {
      const changes = { ...values, updatedAt: new Date() };
      await database.legacy.em().nativeUpdate(PipelineScheduleVariable, { id: variable.id }, changes);
      return { ...variable, ...changes };
    },

    remove: (id: number) => database.legacy.em().nativeDelete(PipelineScheduleVariable, { id }),
  };
}

export type ScheduleVariableStore = ReturnType<typeof createScheduleVariableStore>;
