/** The minimal pipeline model: what a schedule or a play creates, and its listing. */
import type { Database } from '@forgekit/kernel';
import { nextInternalId, type EntityManager } from '@forgekit/kernel/orm';
import { Pipeline, type PipelineRow } from '../entities/pipeline.js';
import { PipelineIid } from '../entities/pipeline-iid.js';
import { splitFullRef } from '../git-refs/ref-resolver.js';

/** The `source` of pipelines a schedule starts. */
export const SCHEDULE_SOURCE = 'scheduled';
/** Pipelines start `created`: no job runs them yet. */
export const INITIAL_STATUS = 'created';

export interface NewPipeline {
  projectId: number;
  scheduleId: number | null;
  userId: number | null;
  /** `refs/heads/<name>` or `refs/tags/<name>`. */
  fullRef: string;
  sha: string | null;
  source: string;
}

export interface PipelineFilters {
  scope?: 'running' | 'pending' | 'finished' | 'branches' | 'tags' | null;
  status?: string | null;
  updatedBefore?: Date | null;
  updatedAfter?: Date | null;
  createdBefore?: Date | null;
  createdAfter?: Date | null;
}

/** Pipeline statuses the `status` filter accepts. */
export const PIPELINE_STATUSES = [
  'created',
  'waiting_for_resource',
  'preparing',
  'waiting_for_callback',
  'pending',
  'running',
  'success',
  'failed',
  'canceling',
  'canceled',
  'skipped',
  'manual',
  'scheduled',
] as const;

const FINISHED = ['success', 'failed', 'canceled', 'skipped'];

export function createPipelineStore(database: Database) {
  /** A schedule's pipelines with the list filters applied (unordered, unpaged). */
  function ofSchedule(scheduleId: number, filters: PipelineFilters) {
    const query = database.legacy.from(Pipeline).where('pipeline_schedule_id', scheduleId);
    if (filters.scope === 'running' || filters.scope === 'pending') query.where('status', filters.scope);
    if (filters.scope === 'finished') query.whereIn('status', FINISHED);
    if (filters.scope === 'branches' || filters.scope === 'tags') {
      // The latest pipeline of each branch (or tag).
      const latest = database.legacy
        .table(Pipeline)
        .max('id')
        .where('pipeline_schedule_id', scheduleId)
        .where('tag', filters.scope === 'tags')
        .groupBy('ref');
      query.whereIn('id', latest);
    }
    if (filters.status) query.where('status', filters.status);
    if (filters.updatedBefore) query.where('updated_at', '<=', filters.updatedBefore);
    if (filters.updatedAfter) query.where('updated_at', '>=', filters.updatedAfter);
    if (filters.createdBefore) query.where('created_at', '<=', filters.createdBefore);
    if (filters.createdAfter) query.where('created_at', '>=', filters.createdAfter);
    return query;
  }

  /** The project's next pipeline iid, under a lock on the project's counter, so concurrent writers never share one. */
  async function nextIid(em: EntityManager, projectId: number): Promise<number> {
    await database.legacy.lock(em, `pipeline-schedules:pipeline-iid:${projectId}`);
    const counter = await database.legacy.row(PipelineIid, database.legacy.from(PipelineIid).where('project_id', projectId), { em });
    const next = nextInternalId(counter?.lastIid, 'Pipeline');
    if (counter) await em.nativeUpdate(PipelineIid, { projectId }, { lastIid: next });
    else await em.insert(PipelineIid, { projectId, lastIid: next });
    return next;
  }

  return {
    /** Inserts a pipeline within `em`'s transaction. */
    async create(em: EntityManager, input: NewPipeline): Promise<PipelineRow> {
      const now = new Date();
      const { ref, tag } = splitFullRef(input.fullRef);
      const row = {
        projectId: input.projectId,
        iid: await nextIid(em, input.projectId),
        pipelineScheduleId: input.scheduleId,
        userId: input.userId,
        status: INITIAL_STATUS,
        source: input.source,
        ref,
        tag,
        sha: input.sha,
        createdAt: now,
        updatedAt: now,
      };
      return { id: Number(await em.insert<PipelineRow>(Pipeline, row)), ...row };
    },

    /** A schedule's newest pipeline, by id. */
    latestForSchedule: (scheduleId: number): Promise<PipelineRow | undefined> =>
      database.legacy.row(Pipeline, database.legacy.from(Pipeline).where('pipeline_schedule_id', scheduleId).orderBy('id', 'desc')),

    page: (scheduleId: number, filters: PipelineFilters, sort: 'asc' | 'desc', limit: number, offset: number): Promise<PipelineRow[]> =>
      database.legacy.rows(Pipeline, ofSchedule(scheduleId, filters).orderBy('id', sort).limit(limit).offset(offset)),

    count: (scheduleId: number, filters: PipelineFilters) => database.legacy.count(ofSchedule(scheduleId, filters)),

    /** Drops a project's pipelines and its iid counter, inside `em`'s transaction. */
    async removeAllOf(em: EntityManager, projectId: number) {
      await em.nativeDelete(Pipeline, { projectId });
      await em.nativeDelete(PipelineIid, { projectId });
    },
  };
}

export type PipelineStore = ReturnType<typeof createPipelineStore>;
