/** The milestone endpoints, mounted once for projects and once for groups. */
import { created, defineRoute, noContent, page, relinkWebUrl, reply, totalFor, type RequestContext, type Route } from '@forgekit/kernel';
import type { MilestoneItemKind } from '../contracts.js';
import type { FoundParent, ParentInfo } from './milestone-parents.js';
import { createParams, groupListParams, oneParams, projectListParams, updateParams } from './milestone-params.js';
import { presentMilestone } from './milestone-presenter.js';
import { milestoneItemSchema, milestoneSchema, promotedSchema } from './milestone-schemas.js';
import type { MilestoneService } from './milestone-service.js';

export interface MilestoneMount {
  kind: 'project' | 'group';
  /** `/projects/:id/milestones` or `/groups/:id/milestones`. */
  path: string;
  /** Finds the project or group and checks the caller may read its milestones (404 unseen). */
  reader(ctx: RequestContext): Promise<FoundParent>;
  /** Finds it and checks the caller may manage its milestones (404 unseen, 403 below the role). */
  manager(ctx: RequestContext): Promise<ParentInfo>;
  /** Project milestones only: checks the caller may promote them into the project's group (403 without one). */
  promoter?(ctx: RequestContext): Promise<ParentInfo>;
}

export function milestoneRoutes(service: MilestoneService, mount: MilestoneMount): Route[] {
  const { path, reader, manager } = mount;
  const item = `${path}/:milestone_id`;

  const itemsRoute = (kind: MilestoneItemKind) =>
    defineRoute({
      method: 'GET',
      path: `${item}/${kind}`,
      paginated: true,
      response: { schema: milestoneItemSchema },
      before: reader,
      input: oneParams,
      async handler(ctx, input, parent) {
        const milestone = await service.find(parent, input.milestone_id);
        const { perPage, offset } = ctx.page;
        const result = await service.items(kind, { milestone, parent: parent.items, user: ctx.user, perPage, offset });
        return page(result.items, result.total);
      },
    });

  return [
    defineRoute({
      method: 'GET',
      path,
      paginated: true,
      response: { schema: milestoneSchema },
      before: reader,
      // Project lists take no `include_descendants`; it stays absent there.
      input: (mount.kind === 'group' ? groupListParams : projectListParams) as typeof groupListParams,
      async handler(ctx, input, parent) {
        const { perPage, offset } = ctx.page;
        const { milestones, count } = await service.list(parent, input, ctx.user, { perPage, offset });
        return page(
          milestones.map((milestone) => relinkWebUrl(ctx, presentMilestone(milestone))),
          await totalFor(ctx.page, milestones.length, count),
        );
      },
    }),
    defineRoute({
      method: 'GET',
      path: item,
      response: { schema: milestoneSchema },
      before: reader,
      input: oneParams,
      async handler(ctx, input, parent) {
        return relinkWebUrl(ctx, presentMilestone(await service.find(parent, input.milestone_id)));
      },
    }),
    defineRoute({
      method: 'POST',
      path,
      response: { schema: milestoneSchema },
      before: manager,
      input: createParams,
      async handler(ctx, input, parent) {
        return created(relinkWebUrl(ctx, presentMilestone(await service.create(parent, input, ctx.user.id))));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: item,
      response: { schema: milestoneSchema },
      before: manager,
      input: updateParams,
      async handler(ctx, input, parent) {
        const milestone = await service.find(parent, input.milestone_id);
        return relinkWebUrl(ctx, presentMilestone(await service.update(parent, milestone, input, ctx.user.id)));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: item,
      response: { status: 204 },
      before: manager,
      input: oneParams,
      async handler(ctx, input, parent) {
        await service.remove(await service.find(parent, input.milestone_id), ctx.user.id);
        return noContent();
      },
    }),
    itemsRoute('issues'),
    itemsRoute('merge_requests'),
    ...(mount.promoter
      ? [
          defineRoute({
            method: 'POST',
            path: `${item}/promote`,
            response: { status: 200, schema: promotedSchema, errors: [400] },
            before: mount.promoter,
            async handler(ctx, _input, parent) {
              // GitLab declares no parameter here: the id is cast as Rails casts it ("12abc" is 12, "abc" none).
              const milestone = await service.find(parent, Number.parseInt((ctx.params as Record<string, string | undefined>).milestone_id ?? '', 10) || 0);
              await service.promote(parent, milestone, ctx.user.id);
              // GitLab's answer is the status it sets, as the body.
              return reply(200, 200);
            },
          }),
        ]
      : []),
  ];
}
