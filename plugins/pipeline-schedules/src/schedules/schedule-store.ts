/** Schedules and their inputs, read and written by property. */
import type { Database, Transaction } from '@forgekit/kernel';
import { recordId } from '@forgekit/kernel/orm';
import { PipelineEntity } from '../entities/pipeline.js';
import { PipelineScheduleEntity, type PipelineScheduleRow } from '../entities/pipeline-schedule.js';
import { PipelineScheduleInputEntity, type PipelineScheduleInputRow } from '../entities/pipeline-schedule-input.js';
import { PipelineScheduleVariableEntity } from '../entities/pipeline-schedule-variable.js';

export interface ScheduleValues {
  description: string;
  ref: string;
  cron: string;
  cronTimezone: string;
  active: boolean;
  nextRunAt: Date;
  ownerId: number | null;
}

/** Input changes by name: values to create or replace, names to drop. */
export interface InputChanges {
  upsert: Map<string, unknown>;
  remove: Set<string>;
}

export type ScheduleScope = 'active' | 'inactive' | null | undefined;

export function createScheduleStore(database: Database) {
  const ofProject = (projectId: number, scope?: ScheduleScope) => {
    const query = database.from(PipelineScheduleEntity).where('projectId', projectId);
    if (scope) query.where('active', scope === 'active');
    return query;
  };

  async function writeInputs(tx: Transaction, scheduleId: number, changes: InputChanges) {
    if (changes.remove.size > 0)
      await database.delete(PipelineScheduleInputEntity, { pipelineScheduleId: scheduleId, name: { $in: [...changes.remove] } }, { tx });
    const rows = [...changes.upsert].map(([name, value]) => ({ pipelineScheduleId: scheduleId, name, value: value as PipelineScheduleInputRow['value'] }));
    // Inserted, or by their unique (schedule, name) replaced.
    await database.upsertMany(PipelineScheduleInputEntity, rows, { tx });
  }

  /** Deletes the variables, inputs and rows of the schedules `ids`. */
  async function removeSchedules(tx: Transaction, ids: number[]) {
    await database.delete(PipelineScheduleVariableEntity, { pipelineScheduleId: { $in: ids } }, { tx });
    await database.delete(PipelineScheduleInputEntity, { pipelineScheduleId: { $in: ids } }, { tx });
    await database.delete(PipelineScheduleEntity, { id: { $in: ids } }, { tx });
  }

  return {
    async find(projectId: number, id: number): Promise<PipelineScheduleRow | undefined> {
      if (recordId(id) === null) return undefined;
      return database.row(ofProject(projectId).where('id', id));
    },

    /** A page of a project's schedules, newest first. */
    page: (projectId: number, scope: ScheduleScope, limit: number, offset: number): Promise<PipelineScheduleRow[]> =>
      database.rows(ofProject(projectId, scope).orderBy('id', 'desc').limit(limit).offset(offset)),

    count: (projectId: number, scope?: ScheduleScope) => database.count(ofProject(projectId, scope)),

    /** Inputs per schedule id, oldest first. */
    async inputsOf(scheduleIds: number[]): Promise<Map<number, PipelineScheduleInputRow[]>> {
      const byId = new Map<number, PipelineScheduleInputRow[]>(scheduleIds.map((id) => [id, []]));
      if (scheduleIds.length === 0) return byId;
      const rows = await database.rows(database.from(PipelineScheduleInputEntity).whereIn('pipelineScheduleId', scheduleIds).orderBy('id'));
      for (const row of rows) byId.get(row.pipelineScheduleId)?.push(row);
      return byId;
    },

    /** Active schedules due at `now`, by id, after `afterId`. */
    due: (now: Date, afterId: number, limit: number): Promise<PipelineScheduleRow[]> =>
      database.rows(
        database.from(PipelineScheduleEntity).where('active', true).where('nextRunAt', '<=', now).where('id', '>', afterId).orderBy('id').limit(limit),
      ),

    /**
     * Within `tx`, moves the schedule's next run on from the value it was read with: true
     * for the one caller that did, false for any other.
     */
    async claimRun(tx: Transaction, schedule: PipelineScheduleRow, nextRunAt: Date): Promise<boolean> {
      const claimed = await database.update(
        PipelineScheduleEntity,
        { id: schedule.id, active: true, nextRunAt: schedule.nextRunAt },
        { nextRunAt, updatedAt: new Date() },
        { tx },
      );
      return claimed === 1;
    },

    /**
     * Inserts the schedule with its inputs unless the project already has `limit`
     * schedules (0: no limit). Creates for one project take turns, so the limit holds
     * when they race. Null when the limit held the schedule back.
     */
    insert(projectId: number, values: ScheduleValues, inputs: InputChanges, limit: number): Promise<PipelineScheduleRow | null> {
      return database.transaction(async (tx) => {
        await database.lock(tx, `pipeline-schedules:schedules:${projectId}`);
        if (limit > 0 && (await database.count(ofProject(projectId), { tx })) >= limit) return null;
        const now = new Date();
        const row = { projectId, ...values, createdAt: now, updatedAt: now };
        const id = await database.insert(PipelineScheduleEntity, row, { tx });
        await writeInputs(tx, id, inputs);
        return { id, ...row };
      });
    },

    update(schedule: PipelineScheduleRow, values: Partial<ScheduleValues>, inputs?: InputChanges): Promise<PipelineScheduleRow> {
      return database.transaction(async (tx) => {
        const changes = { ...values, updatedAt: new Date() };
        await database.update(PipelineScheduleEntity, { id: schedule.id }, changes, { tx });
        if (inputs) await writeInputs(tx, schedule.id, inputs);
        return { ...schedule, ...changes };
      });
    },

    /** Deletes the schedule with its variables and inputs; its pipelines stay, without the link, as in GitLab. */
    remove(id: number) {
      return database.transaction(async (tx) => {
        await database.update(PipelineEntity, { pipelineScheduleId: id }, { pipelineScheduleId: null }, { tx });
        await removeSchedules(tx, [id]);
      });
    },

    /** Drops a project's schedules with their variables and inputs, inside `tx`. */
    async removeAllOf(tx: Transaction, projectId: number) {
      const ids = (await database.rows(ofProject(projectId), { tx })).map((row) => row.id);
      if (ids.length > 0) await removeSchedules(tx, ids);
    },
  };
}

export type ScheduleStore = ReturnType<typeof createScheduleStore>;
