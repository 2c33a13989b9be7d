/** The minimal pipeline model: what a schedule or a play creates, and its listing. */
import type { Knex } from '@forgekit/kernel/orm';
import { splitFullRef } from '../git-refs/ref-resolver.js';
import type { PipelineRow } from '../shared/rows.js';

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

/** The project's next pipeline iid: one counter row per project, so concurrent writers never share an iid. */
async function nextIid(trx: Knex, projectId: number): Promise<number> {
  const [row] = await trx('ci_pipeline_iids')
    .insert({ project_id: projectId, last_iid: 1 })
    .onConflict('project_id')
    .merge({ last_iid: trx.raw('ci_pipeline_iids.last_iid + 1') })
    .returning('last_iid');
  return Number((row as { last_iid: number }).last_iid);
}

export function createPipelineStore(db: Knex) {
  return {
    /** Inserts a pipeline; `trx` is the transaction it belongs to (or the plain connection). */
    async create(trx: Knex, input: NewPipeline): Promise<PipelineRow> {
      const now = new Date();
      const { ref, tag } = splitFullRef(input.fullRef);
      const iid = await nextIid(trx, input.projectId);
      const [inserted] = await trx('ci_pipelines')
        .insert({
          project_id: input.projectId,
          iid,
          pipeline_schedule_id: input.scheduleId,
          user_id: input.userId,
          status: INITIAL_STATUS,
          source: input.source,
          ref,
          tag,
          sha: input.sha,
          created_at: now,
          updated_at: now,
        })
        .returning('id');
      return (await trx<PipelineRow>('ci_pipelines')
        .where('id', (inserted as { id: number }).id)
        .first())!;
    },

    /** A schedule's newest pipeline, by id. */
    async latestForSchedule(scheduleId: number): Promise<PipelineRow | undefined> {
      return db<PipelineRow>('ci_pipelines').where('pipeline_schedule_id', scheduleId).orderBy('id', 'desc').first();
    },

    /** A schedule's pipelines with the list filters applied (unordered, unpaged). */
    forSchedule(scheduleId: number, filters: PipelineFilters): Knex.QueryBuilder {
      const query = db('ci_pipelines').where('pipeline_schedule_id', scheduleId);
      if (filters.scope === 'running' || filters.scope === 'pending') query.where('status', filters.scope);
      if (filters.scope === 'finished') query.whereIn('status', FINISHED);
      if (filters.scope === 'branches' || filters.scope === 'tags') {
        // The latest pipeline of each branch (or tag).
        query.whereIn(
          'id',
          db('ci_pipelines')
            .max('id')
            .where('pipeline_schedule_id', scheduleId)
            .where('tag', filters.scope === 'tags')
            .groupBy('ref'),
        );
      }
      if (filters.status) query.where('status', filters.status);
      if (filters.updatedBefore) query.where('updated_at', '<=', filters.updatedBefore);
      if (filters.updatedAfter) query.where('updated_at', '>=', filters.updatedAfter);
      if (filters.createdBefore) query.where('created_at', '<=', filters.createdBefore);
      if (filters.createdAfter) query.where('created_at', '>=', filters.createdAfter);
      return query;
    },

    /** Pipelines outlive their schedule, as in GitLab; they only lose the link. */
    async detachFromSchedule(trx: Knex, scheduleId: number) {
      await trx('ci_pipelines').where('pipeline_schedule_id', scheduleId).update({ pipeline_schedule_id: null });
    },

    async removeForProject(trx: Knex, projectId: number) {
      await trx('ci_pipelines').where('project_id', projectId).delete();
      await trx('ci_pipeline_iids').where('project_id', projectId).delete();
    },
  };
}

export type PipelineStore = ReturnType<typeof createPipelineStore>;
