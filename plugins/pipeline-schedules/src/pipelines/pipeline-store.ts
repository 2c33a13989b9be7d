/** The minimal pipeline model: what a schedule or a play creates, and its listing. */
import type { Database, Transaction } from '@forgekit/kernel';
import { nextInternalId } from '@forgekit/kernel/orm';
import { COMPLETED_CI_STATUSES } from '@forgekit/plugin-core/contracts';
import { PipelineEntity, type PipelineRow } from '../entities/pipeline.js';
import { PipelineIidEntity } from '../entities/pipeline-iid.js';
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

export function createPipelineStore(database: Database) {
  /** A schedule's pipelines with the list filters applied (unordered, unpaged). */
  function ofSchedule(scheduleId: number, filters: PipelineFilters) {
    const query = database.from(PipelineEntity).where('pipelineScheduleId', scheduleId);
    if (filters.scope === 'running' || filters.scope === 'pending') query.where('status', filters.scope);
    if (filters.scope === 'finished') query.whereIn('status', COMPLETED_CI_STATUSES);
    if (filters.scope === 'branches' || filters.scope === 'tags') {
      // The latest pipeline of each branch (or tag).
      const latest = database
        .table(PipelineEntity)
        .max({ id: 'id' })
        .where({ pipelineScheduleId: scheduleId, tag: filters.scope === 'tags' })
        .groupBy('ref');
      query.whereIn('id', latest);
    }
    if (filters.status) query.where('status', filters.status);
    if (filters.updatedBefore) query.where('updatedAt', '<=', filters.updatedBefore);
    if (filters.updatedAfter) query.where('updatedAt', '>=', filters.updatedAfter);
    if (filters.createdBefore) query.where('createdAt', '<=', filters.createdBefore);
    if (filters.createdAfter) query.where('createdAt', '>=', filters.createdAfter);
    return query;
  }

  /** The project's next pipeline iid, under a lock on the project's counter, so concurrent writers never share one. */
  async function nextIid(tx: Transaction, projectId: number): Promise<number> {
    await database.lock(tx, `pipeline-schedules:pipeline-iid:${projectId}`);
    const counter = await database.row(database.from(PipelineIidEntity).where('projectId', projectId), { tx });
    const next = nextInternalId(counter?.lastIid, 'Pipeline');
    if (counter) await database.update(PipelineIidEntity, { projectId }, { lastIid: next }, { tx });
    else await database.insert(PipelineIidEntity, { projectId, lastIid: next }, { tx });
    return next;
  }

  return {
    /** Inserts a pipeline within `tx`. */
    async create(tx: Transaction, input: NewPipeline): Promise<PipelineRow> {
      const now = new Date();
      const { ref, tag } = splitFullRef(input.fullRef);
      const row = {
        projectId: input.projectId,
        iid: await nextIid(tx, input.projectId),
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
      return { id: await database.insert(PipelineEntity, row, { tx }), ...row };
    },

    /** A schedule's newest pipeline, by id. */
    latestForSchedule: (scheduleId: number): Promise<PipelineRow | undefined> =>
      database.row(database.from(PipelineEntity).where('pipelineScheduleId', scheduleId).orderBy('id', 'desc')),

    page: (scheduleId: number, filters: PipelineFilters, sort: 'asc' | 'desc', limit: number, offset: number): Promise<PipelineRow[]> =>
      database.rows(ofSchedule(scheduleId, filters).orderBy('id', sort).limit(limit).offset(offset)),

    count: (scheduleId: number, filters: PipelineFilters) => database.count(ofSchedule(scheduleId, filters)),

    /** Drops a project's pipelines and its iid counter, inside `tx`. */
    async removeAllOf(tx: Transaction, projectId: number) {
      await database.delete(PipelineEntity, { projectId }, { tx });
      await database.delete(PipelineIidEntity, { projectId }, { tx });
    },
  };
}

export type PipelineStore = ReturnType<typeof createPipelineStore>;
