import { kernelServices, definePlugin } from '@forgekit/kernel';
import { coreAccessRef, coreProjectsRef, coreUsersRef } from '@forgekit/plugin-core';
import { planLimitsServiceRef } from '@forgekit/plugin-plan-limits';
import { repositoriesServiceRef } from '@forgekit/plugin-repositories';
import * as v from 'valibot';
import { isValidCron } from './cron/cron-expression.js';
import { pipelineScheduleEntities } from './entities/index.js';
import { defaultRefResolver, type RefResolver } from './git-refs/ref-resolver.js';
import { repositoryRefResolver } from './git-refs/repository-ref-resolver.js';
import { init } from './migrations/202611231000-init.js';
import { pipelineIidsProjectNotNull } from './migrations/202611241000-pipeline-iids-project-not-null.js';
import { pipelineRoutes } from './pipelines/pipeline-routes.js';
import { createPipelineStore } from './pipelines/pipeline-store.js';
import { createSchedulePipelines } from './pipelines/schedule-pipelines.js';
import { createScheduleAccess } from './schedules/schedule-access.js';
import { scheduleRoutes } from './schedules/schedule-routes.js';
import { createScheduleService } from './schedules/schedule-service.js';
import { createScheduleStore } from './schedules/schedule-store.js';
import { createScheduleViews } from './schedules/schedule-views.js';
import { createScheduler, TICK_JOB } from './scheduler/run-due-schedules.js';
import { scheduleVariableRoutes } from './variables/schedule-variable-routes.js';
import { createScheduleVariableStore } from './variables/schedule-variable-store.js';

export const PipelineSchedulesConfigSchema = v.object({
  /**
   * The cron (UTC) the host runs `pipeline-schedules:tick` on. When set, `next_run_at`
   * names the tick that will fire the run, as GitLab reports it; without it,
   * `next_run_at` is the cron's own next occurrence.
   */
  workerCron: v.optional(v.pipe(v.string(), v.check(isValidCron, 'workerCron is not a valid cron expression'))),
});

export type PipelineSchedulesConfig = v.InferOutput<typeof PipelineSchedulesConfigSchema>;

export interface PipelineSchedulesPluginOptions {
  /** How short refs become full refs and which commit a ref points at; the default knows no repository. */
  refResolver?: RefResolver;
  /**
   * Read refs from the projects' repositories (needs the repositories plugin): short
   * names expand to the branch or tag that exists, and names that are both or
   * neither are refused as ambiguous. Ignored when `refResolver` is given.
   */
  repositories?: boolean;
}

/** Pipeline schedules with their variables and inputs, the pipelines they start, and the scheduler that fires them. */
export function createPipelineSchedulesPlugin(options: PipelineSchedulesPluginOptions = {}) {
  const fromRepositories = !options.refResolver && options.repositories === true;
  return definePlugin<PipelineSchedulesConfig>({
    id: 'pipeline-schedules',
    compatibility: '^0.1.0',
    config: PipelineSchedulesConfigSchema,
    env: { FORGEKIT_PIPELINE_SCHEDULES_WORKER_CRON: 'workerCron' },
    entities: pipelineScheduleEntities,
    migrations: [init, pipelineIidsProjectNotNull],
    requires: [coreAccessRef, coreProjectsRef, coreUsersRef, planLimitsServiceRef, ...(fromRepositories ? [repositoriesServiceRef] : [])],
    register(ctx) {
      const refs = fromRepositories ? repositoryRefResolver(ctx.resolve(repositoriesServiceRef)) : (options.refResolver ?? defaultRefResolver);
      const { knex: db } = ctx.resolve(kernelServices.database);
      const projects = ctx.resolve(coreProjectsRef);
      const store = createScheduleStore(db);
      const pipelines = createPipelineStore(db);
      const variables = createScheduleVariableStore(db);
      const users = ctx.resolve(coreUsersRef);
      const access = createScheduleAccess(ctx.resolve(coreAccessRef), projects, users, store);
      const service = createScheduleService({ store, refs, limits: ctx.resolve(planLimitsServiceRef), workerCron: ctx.config.workerCron });
      const views = createScheduleViews(store, pipelines, users);
      const runs = createSchedulePipelines(db, pipelines, refs, ctx.events);
      const runDueSchedules = createScheduler({ db, projects, runs, ownerMayRun: access.ownerMayRun, log: ctx.log, workerCron: ctx.config.workerCron });

      ctx.routes(
        ...scheduleRoutes({ access, store, service, views, variables, pipelines }),
        ...pipelineRoutes(access, pipelines, runs),
        ...scheduleVariableRoutes(access, variables),
      );
      ctx.jobs.define(TICK_JOB, async () => {
        await runDueSchedules();
      });
      ctx.events.on<{ projectId: number }>('project.deleted', ({ projectId }) =>
        db.transaction(async (trx) => {
          await store.removeForProject(trx, projectId);
          await pipelines.removeForProject(trx, projectId);
        }),
      );
    },
  });
}

export const pipelineSchedulesPlugin = createPipelineSchedulesPlugin();

/** The same plugin reading refs from the repositories plugin, for servers that host repositories. */
export const pipelineSchedulesWithRepositoriesPlugin = createPipelineSchedulesPlugin({ repositories: true });
