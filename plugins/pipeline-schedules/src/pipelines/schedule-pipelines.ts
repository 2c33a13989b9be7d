/**
 * Starting a schedule's pipelines: on `play` (the next run stays as it is) and when
 * the scheduler fires a due run. A due run is claimed with a compare-and-swap on
 * `next_run_at` in the same transaction that creates its pipeline, so however many
 * server processes tick at once, each due run gives exactly one pipeline.
 */
import type { Database, EventBus } from '@forgekit/kernel';
import type { Project } from '@forgekit/plugin-core/contracts';
import { pipelineScheduleEvents } from '../contracts.js';
import type { PipelineRow } from '../entities/pipeline.js';
import type { PipelineScheduleRow } from '../entities/pipeline-schedule.js';
import type { RefResolver } from '../git-refs/ref-resolver.js';
import { refProjectOf } from '../schedules/schedule-service.js';
import type { ScheduleStore } from '../schedules/schedule-store.js';
import { SCHEDULE_SOURCE, type PipelineStore } from './pipeline-store.js';

export function createSchedulePipelines(database: Database, schedules: ScheduleStore, pipelines: PipelineStore, refs: RefResolver, events: EventBus) {
  async function newPipeline(schedule: PipelineScheduleRow, project: Project, userId: number | null) {
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
    await events.emit(pipelineScheduleEvents.pipelineCreated, {
      projectId: pipeline.projectId,
      pipelineId: pipeline.id,
      scheduleId,
      source: pipeline.source,
    });
  }

  return {
    /** A pipeline now, started by `userId`. */
    async start(schedule: PipelineScheduleRow, project: Project, userId: number): Promise<PipelineRow> {
      const input = await newPipeline(schedule, project, userId);
      const pipeline = await database.transaction((tx) => pipelines.create(tx, input));
      await announce(pipeline, schedule.id);
      return pipeline;
    },

    /**
     * The due run of `schedule` as it was read: moves `next_run_at` to `nextRunAt`
     * and, when `startPipeline`, creates the pipeline. Null when another process
     * claimed the run first, or when no pipeline was to be started.
     */
    async fireDue(schedule: PipelineScheduleRow, project: Project, nextRunAt: Date, startPipeline: boolean): Promise<PipelineRow | null> {
      const input = startPipeline ? await newPipeline(schedule, project, schedule.ownerId ?? null) : null;
      const pipeline = await database.transaction(async (tx) => {
        const claimed = await schedules.claimRun(tx, schedule, nextRunAt);
        return claimed && input ? pipelines.create(tx, input) : null;
      });
      if (pipeline) await announce(pipeline, schedule.id);
      return pipeline;
    },
  };
}

export type SchedulePipelines = ReturnType<typeof createSchedulePipelines>;
