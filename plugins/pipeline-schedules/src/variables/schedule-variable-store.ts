/** Variables of a schedule, passed to the pipelines it starts. */
import type { Database } from '@forgekit/kernel';
import { unlessTaken } from '@forgekit/kernel/orm';
import { PipelineScheduleVariableEntity, type PipelineScheduleVariableRow, type ScheduleVariableType } from '../entities/pipeline-schedule-variable.js';

export function createScheduleVariableStore(database: Database) {
  const ofSchedule = (scheduleId: number) => database.from(PipelineScheduleVariableEntity).where('pipelineScheduleId', scheduleId);

  return {
    list: (scheduleId: number): Promise<PipelineScheduleVariableRow[]> => database.rows(ofSchedule(scheduleId).orderBy('id')),
    find: (scheduleId: number, key: string): Promise<PipelineScheduleVariableRow | undefined> => database.row(ofSchedule(scheduleId).where('key', key)),

    /** The new variable, or null when the schedule already has one with this key. */
    async insert(scheduleId: number, values: { key: string; value: string; variableType: ScheduleVariableType }): Promise<PipelineScheduleVariableRow | null> {
      const now = new Date();
      const row = { pipelineScheduleId: scheduleId, ...values, raw: false, createdAt: now, updatedAt: now };
      const id = await unlessTaken(database.insert(PipelineScheduleVariableEntity, row), () => null);
      return id === null ? null : { id, ...row };
    },

    async update(variable: PipelineScheduleVariableRow, values: { value?: string; variableType?: ScheduleVariableType }): Promise<PipelineScheduleVariableRow> {
      const changes = { ...values, updatedAt: new Date() };
      await database.update(PipelineScheduleVariableEntity, { id: variable.id }, changes);
      return { ...variable, ...changes };
    },

    remove: (id: number) => database.delete(PipelineScheduleVariableEntity, { id }),
  };
}

export type ScheduleVariableStore = ReturnType<typeof createScheduleVariableStore>;
