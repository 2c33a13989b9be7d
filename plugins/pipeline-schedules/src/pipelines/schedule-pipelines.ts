/**
 * Starting a schedule's pipelines: on `play` (the next run stays as it is) and when
 * the scheduler fires a due run. A due run is claimed with a compare-and-swap on
 * `next_run_at` in the same transaction that creates its pipeline, so however many
 * server processes tick at once, each due run gives exactly one pipeline.
 */
import type { EventBus } from '@forgekit/kernel';
import type { Knex } from '@forgekit/kernel/orm';
import type { ProjectWithNamespace } from '@forgekit/plugin-core';
import type { RefResolver } from '../git-refs/ref-resolver.js';
import { refProjectOf } from '../schedules/schedule-service.js';
import type { PipelineRow, ScheduleRow } from '../shared/rows.js';
import { SCHEDULE_SOURCE, type PipelineStore } from './pipeline-store.js';

export interface PipelineCreatedEvent {
  projectId: number;
  pipelineId: number;
  scheduleId: number;
  source: string;
}

export function createSchedulePipelines(db: Knex, pipelines: PipelineStore, refs: RefResolver, events: EventBus) {
  async function newPipeline(schedule: ScheduleRow, project: ProjectWithNamespace, userId: number | null) {
    return {
      projectId: project.id,
      scheduleId: schedule.id,
      userId,
      fullRef: schedule.ref,
      sha: await refs.commitFor(refProjectOf(project), schedule.ref),
      source: SCHEDULE_SOURCE,
    };
  }

  async function announce(pipeline: PipelineRow, scheduleId: number) {
    await events.emit<PipelineCreatedEvent>('pipeline.created', {
      projectId: pipeline.project_id,
      pipelineId: pipeline.id,
      scheduleId,
      source: pipeline.source,
    });
  }

  return {
    /** A pipeline now, started by `userId`. */
    async start(schedule: ScheduleRow, project: ProjectWithNamespace, userId: number): Promise<PipelineRow> {
      const input = await newPipeline(schedule, project, userId);
      const pipeline = await db.transaction((trx) => pipelines.create(trx, input));
      await announce(pipeline, schedule.id);
      return pipeline;
    },

    /**
     * The due run of `schedule` as it was read: moves `next_run_at` to `nextRunAt`
     * and, when `startPipeline`, creates the pipeline. Null when another process
     * claimed the run first, or when no pipeline was to be started.
     */
    async fireDue(schedule: ScheduleRow, project: ProjectWithNamespace, nextRunAt: Date, startPipeline: boolean): Promise<PipelineRow | null> {
      const input = startPipeline ? await newPipeline(schedule, project, schedule.owner_id) : null;
      const pipeline = await db.transaction(async (trx) => {
        const claimed = await trx('ci_pipeline_schedules')
          .where({ id: schedule.id, active: true })
          .where('next_run_at', schedule.next_run_at as Date)
          .update({ next_run_at: nextRunAt, updated_at: new Date() });
        return claimed === 1 && input ? pipelines.create(trx, input) : null;
      });
      if (pipeline) await announce(pipeline, schedule.id);
      return pipeline;
    },
  };
}

export type SchedulePipelines = ReturnType<typeof createSchedulePipelines>;
