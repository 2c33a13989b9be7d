/** Variables of a schedule, passed to the pipelines it starts. */
import type { Knex } from '@forgekit/kernel/orm';
import type { ScheduleVariableRow } from '../shared/rows.js';

export function createScheduleVariableStore(db: Knex) {
  const table = () => db<ScheduleVariableRow>('ci_pipeline_schedule_variables');
  return {
    list: (scheduleId: number): Promise<ScheduleVariableRow[]> => table().where('pipeline_schedule_id', scheduleId).orderBy('id'),
    find: (scheduleId: number, key: string) => table().where({ pipeline_schedule_id: scheduleId, key }).first(),

    async insert(scheduleId: number, values: { key: string; value: string; variable_type: string }): Promise<ScheduleVariableRow> {
      const now = new Date();
      const [inserted] = await table()
        .insert({ pipeline_schedule_id: scheduleId, ...values, raw: false, created_at: now, updated_at: now })
        .returning('id');
      return (await table()
        .where('id', (inserted as { id: number }).id)
        .first())!;
    },

    async update(id: number, values: { value?: string; variable_type?: string }): Promise<ScheduleVariableRow> {
      await table()
        .where('id', id)
        .update({ ...values, updated_at: new Date() });
      return (await table().where('id', id).first())!;
    },

    remove: (id: number) => table().where('id', id).delete(),
  };
}

export type ScheduleVariableStore = ReturnType<typeof createScheduleVariableStore>;
