/**
 * The scheduler's tick: every active schedule whose `next_run_at` has come moves
 * on to its next run, once, and starts a pipeline as its owner, when the owner may
 * still start pipelines in the project (as GitLab, which skips the run otherwise).
 */
import type { Logger } from '@forgekit/kernel';
import type { ProjectService, Project } from '@forgekit/plugin-core/contracts';
import { nextRunAt } from '../cron/next-run.js';
import type { PipelineScheduleRow } from '../entities/pipeline-schedule.js';
import type { SchedulePipelines } from '../pipelines/schedule-pipelines.js';
import type { ScheduleStore } from '../schedules/schedule-store.js';

export const TICK_JOB = 'pipeline-schedules:tick';
const BATCH = 100;

export interface SchedulerDeps {
  schedules: ScheduleStore;
  projects: ProjectService;
  runs: SchedulePipelines;
  ownerMayRun: (project: Project, ownerId: number | null) => Promise<boolean>;
  log: Logger;
  workerCron?: string;
}

export function createScheduler({ schedules, projects, runs, ownerMayRun, log, workerCron }: SchedulerDeps) {
  async function fire(schedule: PipelineScheduleRow, now: Date): Promise<boolean> {
    const project = await projects.findById(schedule.projectId);
    const next = nextRunAt(schedule.cron, schedule.cronTimezone, now, workerCron);
    if (!project || !next) return false;
    const startPipeline = await ownerMayRun(project, schedule.ownerId ?? null);
    return (await runs.fireDue(schedule, project, next, startPipeline)) !== null;
  }

  /** Fires what is due at `now`; returns how many pipelines this process created. */
  return async function runDueSchedules(now: Date = new Date()): Promise<number> {
    let fired = 0;
    let afterId = 0;
    for (;;) {
      const due = await schedules.due(now, afterId, BATCH);
      for (const schedule of due) {
        afterId = schedule.id;
        try {
          if (await fire(schedule, now)) fired++;
        } catch (error) {
          log.error({ err: error, pipeline_schedule_id: schedule.id }, 'pipeline schedule run failed');
        }
      }
      if (due.length < BATCH) return fired;
    }
  };
}
