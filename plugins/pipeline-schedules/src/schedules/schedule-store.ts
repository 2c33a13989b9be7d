/** Reads and writes of schedules and their inputs. */
import { recordId, type Knex } from '@forgekit/kernel/orm';
import type { ScheduleInputRow, ScheduleRow } from '../shared/rows.js';

export interface ScheduleValues {
  description: string;
  ref: string;
  cron: string;
  cron_timezone: string;
  active: boolean;
  next_run_at: Date;
  owner_id: number | null;
}

/** Input changes by name: values to create or replace, names to drop. */
export interface InputChanges {
  upsert: Map<string, unknown>;
  remove: Set<string>;
}

export function createScheduleStore(db: Knex) {
  async function writeInputs(trx: Knex, scheduleId: number, changes: InputChanges) {
    if (changes.remove.size > 0) {
      await trx('ci_pipeline_schedule_inputs')
        .where('pipeline_schedule_id', scheduleId)
        .whereIn('name', [...changes.remove])
        .delete();
    }
    for (const [name, value] of changes.upsert) {
      await trx('ci_pipeline_schedule_inputs')
        .insert({ pipeline_schedule_id: scheduleId, name, value: JSON.stringify(value) })
        .onConflict(['pipeline_schedule_id', 'name'])
        .merge(['value']);
    }
  }

  return {
    async find(projectId: number, id: number): Promise<ScheduleRow | undefined> {
      if (recordId(id) === null) return undefined;
      return db<ScheduleRow>('ci_pipeline_schedules').where({ project_id: projectId, id }).first();
    },

    /** A project's schedules, optionally only the active or inactive ones (unordered). */
    forProject(projectId: number, scope?: 'active' | 'inactive' | null): Knex.QueryBuilder {
      const query = db('ci_pipeline_schedules').where('project_id', projectId);
      if (scope) query.where('active', scope === 'active');
      return query;
    },

    async countForProject(projectId: number): Promise<number> {
      const [row] = await db('ci_pipeline_schedules').where('project_id', projectId).count({ n: '*' });
      return Number(row!.n);
    },

    /** Inputs per schedule id, oldest first. */
    async inputsOf(scheduleIds: number[]): Promise<Map<number, ScheduleInputRow[]>> {
      const byId = new Map<number, ScheduleInputRow[]>(scheduleIds.map((id) => [id, []]));
      if (scheduleIds.length === 0) return byId;
      const rows: ScheduleInputRow[] = await db('ci_pipeline_schedule_inputs').whereIn('pipeline_schedule_id', scheduleIds).orderBy('id');
      for (const row of rows) byId.get(row.pipeline_schedule_id)?.push(row);
      return byId;
    },

    async insert(projectId: number, values: ScheduleValues, inputs: InputChanges): Promise<ScheduleRow> {
      const now = new Date();
      return db.transaction(async (trx) => {
        const [inserted] = await trx('ci_pipeline_schedules')
          .insert({ project_id: projectId, ...values, created_at: now, updated_at: now })
          .returning('id');
        const id = (inserted as { id: number }).id;
        await writeInputs(trx, id, inputs);
        return (await trx<ScheduleRow>('ci_pipeline_schedules').where('id', id).first())!;
      });
    },

    async update(id: number, values: Partial<ScheduleValues>, inputs?: InputChanges): Promise<ScheduleRow> {
      return db.transaction(async (trx) => {
        await trx('ci_pipeline_schedules')
          .where('id', id)
          .update({ ...values, updated_at: new Date() });
        if (inputs) await writeInputs(trx, id, inputs);
        return (await trx<ScheduleRow>('ci_pipeline_schedules').where('id', id).first())!;
      });
    },

    /** Deletes the schedule with its variables and inputs; its pipelines stay. */
    async remove(id: number, detachPipelines: (trx: Knex) => Promise<void>) {
      await db.transaction(async (trx) => {
        await detachPipelines(trx);
        await trx('ci_pipeline_schedule_variables').where('pipeline_schedule_id', id).delete();
        await trx('ci_pipeline_schedule_inputs').where('pipeline_schedule_id', id).delete();
        await trx('ci_pipeline_schedules').where('id', id).delete();
      });
    },

    async removeForProject(trx: Knex, projectId: number) {
      const ids = trx('ci_pipeline_schedules').select('id').where('project_id', projectId);
      await trx('ci_pipeline_schedule_variables').whereIn('pipeline_schedule_id', ids.clone()).delete();
      await trx('ci_pipeline_schedule_inputs').whereIn('pipeline_schedule_id', ids.clone()).delete();
      await trx('ci_pipeline_schedules').where('project_id', projectId).delete();
    },
  };
}

export type ScheduleStore = ReturnType<typeof createScheduleStore>;
