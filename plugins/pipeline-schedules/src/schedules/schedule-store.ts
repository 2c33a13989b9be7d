/** Schedules and their inputs: reads through the entities, writes through the EntityManager. */
import type { Database } from '@forgekit/kernel';
import { recordId, type EntityManager } from '@forgekit/kernel/orm';
import { Pipeline } from '../entities/pipeline.js';
import { PipelineSchedule, type PipelineScheduleRow } from '../entities/pipeline-schedule.js';
import { PipelineScheduleInput, type PipelineScheduleInputRow } from '../entities/pipeline-schedule-input.js';
import { PipelineScheduleVariable } from '../entities/pipeline-schedule-variable.js';

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
    const query = database.legacy.from(PipelineSchedule).where('project_id', projectId);
    if (scope) query.where('active', scope === 'active');
    return query;
  };

  async function writeInputs(em: EntityManager, scheduleId: number, changes: InputChanges) {
    if (changes.remove.size > 0) await em.nativeDelete(PipelineScheduleInput, { pipelineScheduleId: scheduleId, name: { $in: [...changes.remove] } });
    const rows = [...changes.upsert].map(([name, value]) => ({ pipelineScheduleId: scheduleId, name, value: value as PipelineScheduleInputRow['value'] }));
    if (rows.length > 0) {
      await em.upsertMany(PipelineScheduleInput, rows, {
        onConflictFields: ['pipelineScheduleId', 'name'],
        onConflictAction: 'merge',
        onConflictMergeFields: ['value'],
      });
    }
  }

  return {
    async find(projectId: number, id: number): Promise<PipelineScheduleRow | undefined> {
      if (recordId(id) === null) return undefined;
      return database.legacy.row(PipelineSchedule, ofProject(projectId).where('id', id));
    },

    /** A page of a project's schedules, newest first. */
    page: (projectId: number, scope: ScheduleScope, limit: number, offset: number): Promise<PipelineScheduleRow[]> =>
      database.legacy.rows(PipelineSchedule, ofProject(projectId, scope).orderBy('id', 'desc').limit(limit).offset(offset)),

    count: (projectId: number, scope?: ScheduleScope) => database.legacy.count(ofProject(projectId, scope)),

    /** Inputs per schedule id, oldest first. */
    async inputsOf(scheduleIds: number[]): Promise<Map<number, PipelineScheduleInputRow[]>> {
      const byId = new Map<number, PipelineScheduleInputRow[]>(scheduleIds.map((id) => [id, []]));
      if (scheduleIds.length === 0) return byId;
      const rows = await database.legacy.rows(
        PipelineScheduleInput,
        database.legacy.from(PipelineScheduleInput).whereIn('pipeline_schedule_id', scheduleIds).orderBy('id'),
      );
      for (const row of rows) byId.get(row.pipelineScheduleId)?.push(row);
      return byId;
    },

    /** Active schedules due at `now`, by id, after `afterId`. */
    due: (now: Date, afterId: number, limit: number): Promise<PipelineScheduleRow[]> =>
      database.legacy.rows(
        PipelineSchedule,
        database.legacy.from(PipelineSchedule).where('active', true).where('next_run_at', '<=', now).where('id', '>', afterId).orderBy('id').limit(limit),
      ),

    /**
     * Within `em`'s transaction, moves the schedule's next run on from the value it was
     * read with: true for the one caller that did, false for any other.
     */
    async claimRun(em: EntityManager, schedule: PipelineScheduleRow, nextRunAt: Date): Promise<boolean> {
      const claimed = await em.nativeUpdate(
        PipelineSchedule,
        { id: schedule.id, active: true, nextRunAt: schedule.nextRunAt },
        { nextRunAt, updatedAt: new Date() },
      );
      return claimed === 1;
    },

    /**
     * Inserts the schedule with its inputs unless the project already has `limit`
     * schedules (0: no limit). Creates for one project take turns, so the limit holds
     * when they race. Null when the limit held the schedule back.
     */
    insert(projectId: number, values: ScheduleValues, inputs: InputChanges, limit: number): Promise<PipelineScheduleRow | null> {
      return database.legacy.transaction(async (em) => {
        await database.legacy.lock(em, `pipeline-schedules:schedules:${projectId}`);
        if (limit > 0 && (await database.legacy.count(ofProject(projectId), { em })) >= limit) return null;
        const now = new Date();
        const row = { projectId, ...values, createdAt: now, updatedAt: now };
        const id = Number(await em.insert<PipelineScheduleRow>(PipelineSchedule, row));
        await writeInputs(em, id, inputs);
        return { id, ...row };
      });
    },

    update(schedule: PipelineScheduleRow, values: Partial<ScheduleValues>, inputs?: InputChanges): Promise<PipelineScheduleRow> {
      return database.legacy.transaction(async (em) => {
        const changes = { ...values, updatedAt: new Date() };
        await em.nativeUpdate(PipelineSchedule, { id: schedule.id }, changes);
        if (inputs) await writeInputs(em, schedule.id, inputs);
        return { ...schedule, ...changes };
      });
    },

    /** Deletes the schedule with its variables and inputs; its pipelines stay, without the link, as in GitLab. */
    remove(id: number) {
      return database.legacy.transaction(async (em) => {
        await em.nativeUpdate(Pipeline, { pipelineScheduleId: id }, { pipelineScheduleId: null });
        await em.nativeDelete(PipelineScheduleVariable, { pipelineScheduleId: id });
        await em.nativeDelete(PipelineScheduleInput, { pipelineScheduleId: id });
        await em.nativeDelete(PipelineSchedule, { id });
      });
    },

    /** Drops a project's schedules with their variables and inputs, inside `em`'s transaction. */
    async removeAllOf(em: EntityManager, projectId: number) {
      const ids = (await database.legacy.rows(PipelineSchedule, database.legacy.from(PipelineSchedule).where('project_id', projectId), { em })).map(
        (row) => row.id,
      );
      if (ids.length === 0) return;
      await em.nativeDelete(PipelineScheduleVariable, { pipelineScheduleId: { $in: ids } });
      await em.nativeDelete(PipelineScheduleInput, { pipelineScheduleId: { $in: ids } });
      await em.nativeDelete(PipelineSchedule, { id: { $in: ids } });
    },
  };
}

export type ScheduleStore = ReturnType<typeof createScheduleStore>;
