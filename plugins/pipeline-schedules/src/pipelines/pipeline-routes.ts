/** A schedule's pipelines: the filtered list, and `play` to start one now. */
import { created, defineRoute, f, page, params, totalFor, type Route } from '@forgekit/kernel';
import { CI_STATUSES } from '@forgekit/plugin-core/contracts';
import { authorize, type ScheduleAccess } from '../schedules/schedule-access.js';
import { projectPathOf } from '../schedules/schedule-views.js';
import { pipelineBasic } from './pipeline-presenter.js';
import { pipelineBasicSchema, pipelineQueuedSchema } from './pipeline-schemas.js';
import type { PipelineStore } from './pipeline-store.js';
import type { SchedulePipelines } from './schedule-pipelines.js';

const ONE = '/projects/:id/pipeline_schedules/:pipeline_schedule_id';

export function pipelineRoutes(access: ScheduleAccess, pipelines: PipelineStore, runs: SchedulePipelines): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: `${ONE}/pipelines`,
      paginated: true,
      response: { schema: pipelineBasicSchema },
      input: params({
        pipeline_schedule_id: f.id(),
        scope: f.optional(f.values(['running', 'pending', 'finished', 'branches', 'tags'] as const)),
        status: f.optional(f.values(CI_STATUSES)),
        updated_before: f.optional(f.datetime()),
        updated_after: f.optional(f.datetime()),
        created_before: f.optional(f.datetime()),
        created_after: f.optional(f.datetime()),
        sort: f.optional(f.values(['asc', 'desc'] as const), 'asc'),
      }),
      async handler(ctx, input) {
        const { schedule, project } = await access.schedule(ctx, input.pipeline_schedule_id);
        const filters = {
          scope: input.scope,
          status: input.status,
          updatedBefore: input.updated_before,
          updatedAfter: input.updated_after,
          createdBefore: input.created_before,
          createdAfter: input.created_after,
        };
        const rows = await pipelines.page(schedule.id, filters, input.sort ?? 'asc', ctx.page.perPage, ctx.page.offset);
        const total = await totalFor(ctx.page, rows.length, () => pipelines.count(schedule.id, filters));
        const path = projectPathOf(project);
        return page(
          rows.map((row) => pipelineBasic(row, path, ctx.externalUrl)),
          total,
        );
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${ONE}/play`,
      response: { schema: pipelineQueuedSchema },
      input: params({ pipeline_schedule_id: f.id() }),
      async handler(ctx, input) {
        const abilities = await access.schedule(ctx, input.pipeline_schedule_id);
        authorize(abilities.createPipelines);
        await runs.start(abilities.schedule, abilities.project, ctx.user!.id);
        return created({ message: '201 Created' });
      },
    }),
  ];
}
