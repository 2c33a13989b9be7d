/** `/projects/:id/pipeline_schedules`: list, read, create, edit, take over and delete schedules. */
import { checkUnmodifiedSince, created, defineRoute, f, page, params, reply, totalFor, type RequestContext, type Route } from '@forgekit/kernel';
import type { Project } from '@forgekit/plugin-core/contracts';
import type { PipelineScheduleRow } from '../entities/pipeline-schedule.js';
import type { ScheduleVariableStore } from '../variables/schedule-variable-store.js';
import { authorize, type ScheduleAccess } from './schedule-access.js';
import { changedInputs, newInputs } from './schedule-params.js';
import type { ScheduleService } from './schedule-service.js';
import { scheduleDetailsSchema, scheduleSchema } from './schedule-schemas.js';
import type { ScheduleStore } from './schedule-store.js';
import type { ScheduleViews } from './schedule-views.js';

export interface ScheduleRouteDeps {
  access: ScheduleAccess;
  store: ScheduleStore;
  service: ScheduleService;
  views: ScheduleViews;
  variables: ScheduleVariableStore;
}

const BASE = '/projects/:id/pipeline_schedules';
const ONE = `${BASE}/:pipeline_schedule_id`;

export function scheduleRoutes({ access, store, service, views, variables }: ScheduleRouteDeps): Route[] {
  const details = (ctx: RequestContext, row: PipelineScheduleRow, project: Project) => views.details(row, project, ctx.externalUrl);

  return [
    defineRoute({
      method: 'GET',
      path: BASE,
      paginated: true,
      response: { schema: scheduleSchema },
      input: params({ scope: f.optional(f.values(['active', 'inactive'] as const)) }),
      async handler(ctx, input) {
        const abilities = await access.project(ctx);
        authorize(abilities.readSchedules);
        const rows = await store.page(abilities.project.id, input.scope, ctx.page.perPage, ctx.page.offset);
        const total = await totalFor(ctx.page, rows.length, () => store.count(abilities.project.id, input.scope));
        return page(await views.list(rows, ctx.externalUrl), total);
      },
    }),
    defineRoute({
      method: 'GET',
      path: ONE,
      response: { schema: scheduleDetailsSchema },
      input: params({ pipeline_schedule_id: f.id() }),
      async handler(ctx, input) {
        const abilities = await access.schedule(ctx, input.pipeline_schedule_id);
        const readable = abilities.adminSchedule ? await variables.list(abilities.schedule.id) : undefined;
        return views.details(abilities.schedule, abilities.project, ctx.externalUrl, readable);
      },
    }),
    defineRoute({
      method: 'POST',
      path: BASE,
      response: { schema: scheduleDetailsSchema },
      input: params({
        description: f.string(),
        ref: f.nonBlankString(),
        cron: f.string(),
        cron_timezone: f.optional(f.string(), 'UTC'),
        active: f.optional(f.boolean(), true),
        inputs: newInputs(),
      }),
      async handler(ctx, input) {
        const abilities = await access.project(ctx);
        authorize(abilities.createSchedules);
        const row = await service.create(abilities.project, ctx.user!.id, {
          description: input.description,
          ref: input.ref,
          cron: input.cron,
          cron_timezone: input.cron_timezone ?? '',
          active: input.active ?? true,
          inputs: input.inputs,
        });
        return created(await details(ctx, row, abilities.project));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: ONE,
      response: { schema: scheduleDetailsSchema },
      input: params({
        pipeline_schedule_id: f.id(),
        description: f.optional(f.string()),
        ref: f.optional(f.string()),
        cron: f.optional(f.string()),
        cron_timezone: f.optional(f.string()),
        active: f.optional(f.boolean()),
        inputs: changedInputs(),
      }),
      async handler(ctx, input) {
        const abilities = await access.schedule(ctx, input.pipeline_schedule_id);
        authorize(abilities.updateSchedule);
        const { description, ref, cron, cron_timezone, active, inputs } = input;
        const row = await service.update(abilities.project, abilities.schedule, { description, ref, cron, cron_timezone, active, inputs });
        return details(ctx, row, abilities.project);
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${ONE}/take_ownership`,
      // 200: the caller already owns the schedule.
      response: { schema: scheduleDetailsSchema, alternatives: { 200: scheduleDetailsSchema } },
      input: params({ pipeline_schedule_id: f.id() }),
      async handler(ctx, input) {
        const abilities = await access.schedule(ctx, input.pipeline_schedule_id);
        authorize(abilities.adminSchedule);
        if (abilities.ownsSchedule) return reply(200, await details(ctx, abilities.schedule, abilities.project));
        const row = await service.takeOwnership(abilities.schedule, ctx.user!.id);
        return created(await details(ctx, row, abilities.project));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: ONE,
      // 412: changed since `If-Unmodified-Since`.
      response: { schema: scheduleDetailsSchema, errors: [412] },
      input: params({ pipeline_schedule_id: f.id() }),
      async handler(ctx, input) {
        const abilities = await access.schedule(ctx, input.pipeline_schedule_id);
        authorize(abilities.adminSchedule);
        checkUnmodifiedSince(ctx.header('If-Unmodified-Since'), abilities.schedule.updatedAt);
        // The document asks for the deleted schedule as GET shows it, with its variables (the caller may read them).
        const body = await views.details(abilities.schedule, abilities.project, ctx.externalUrl, await variables.list(abilities.schedule.id));
        await store.remove(abilities.schedule.id);
        return body;
      },
    }),
  ];
}
