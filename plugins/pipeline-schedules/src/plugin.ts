import { kernelServices, definePlugin } from '@forgekit/kernel';
import { coreAccessRef, coreEvents, coreProjectsRef, coreUsersRef } from '@forgekit/plugin-core/contracts';
import { planLimitsServiceRef } from '@forgekit/plugin-plan-limits/contracts';
import { repositoryReadRef } from '@forgekit/plugin-repositories/contracts';
import * as v from 'valibot';
import { isValidCron } from './cron/cron-expression.js';
import { pipelineScheduleEntities } from './entities/index.js';
import { defaultRefResolver } from './git-refs/ref-resolver.js';
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

/**
 * Pipeline schedules with their variables and inputs, the pipelines they start, and the
 * scheduler that fires them. With the repositories plugin in the host, refs are read from
 * the projects' repositories; without it, every valid short name is taken as a branch.
 */
export const pipelineSchedulesPlugin = definePlugin<PipelineSchedulesConfig>({
  id: 'pipeline-schedules',
  compatibility: '^0.1.0',
  config: PipelineSchedulesConfigSchema,
  env: { FORGEKIT_PIPELINE_SCHEDULES_WORKER_CRON: 'workerCron' },
  entities: pipelineScheduleEntities,
  migrations: [init, pipelineIidsProjectNotNull],
  requires: [coreAccessRef, coreProjectsRef, coreUsersRef, planLimitsServiceRef],
  optional: [repositoryReadRef],
  register(ctx) {
    const repositories = ctx.resolveOptional(repositoryReadRef);
    const refs = repositories ? repositoryRefResolver(repositories) : defaultRefResolver;
    const database = ctx.resolve(kernelServices.database);
    const projects = ctx.resolve(coreProjectsRef);
    const users = ctx.resolve(coreUsersRef);
    const store = createScheduleStore(database);
    const pipelines = createPipelineStore(database);
    const variables = createScheduleVariableStore(database);
    const access = createScheduleAccess(ctx.resolve(coreAccessRef), projects, users, store);
    const service = createScheduleService({ store, refs, limits: ctx.resolve(planLimitsServiceRef), workerCron: ctx.config.workerCron });
    const views = createScheduleViews(store, pipelines, users);
    const runs = createSchedulePipelines(database, store, pipelines, refs, ctx.events);
    const runDueSchedules = createScheduler({
      schedules: store,
      projects,
      runs,
      ownerMayRun: access.ownerMayRun,
      log: ctx.log,
      workerCron: ctx.config.workerCron,
    });

    ctx.routes(
      ...scheduleRoutes({ access, store, service, views, variables }),
      ...pipelineRoutes(access, pipelines, runs),
      ...scheduleVariableRoutes(access, variables),
    );
    ctx.jobs.define(TICK_JOB, async () => {
      await runDueSchedules();
    });
    ctx.events.on(coreEvents.projectDeleted, ({ projectId }) =>
      database.transaction(async (tx) => {
        await store.removeAllOf(tx, projectId);
        await pipelines.removeAllOf(tx, projectId);
      }),
    );
  },
});
