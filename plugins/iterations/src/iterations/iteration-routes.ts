/** GET /groups/:id/iterations and GET /projects/:id/iterations (GitLab's list, anonymous on public groups). */
import { defineRoute, f, page, params, relinkWebUrl, totalFor, type ParamsSchema, type RouteContext, type Route } from '@forgekit/kernel';
import type { GroupDirectory, IterationGroup } from '../groups/group-directory.js';
import { presentIteration } from './iteration-presenter.js';
import { iterationSchema } from './iteration-schemas.js';
import type { IterationService, ListOptions } from './iteration-service.js';

const STATES = ['opened', 'upcoming', 'current', 'started', 'closed', 'all'] as const;
const SEARCH_FIELDS = ['title', 'cadence_title'] as const;

const listParams = params({
  state: f.optional(f.values(STATES), 'all'),
  search: f.optional(f.string()),
  in: f.optional(f.commaList(f.values(SEARCH_FIELDS))),
  include_ancestors: f.optional(f.boolean(), true),
  include_descendants: f.optional(f.boolean(), false),
  updated_before: f.optional(f.datetime()),
  updated_after: f.optional(f.datetime()),
});
type ListInput = typeof listParams extends ParamsSchema<infer T> ? T : never;

const listOptions = (input: ListInput): ListOptions => ({
  state: input.state ?? 'all',
  search: input.search || undefined,
  in: input.in?.length ? input.in : undefined,
  includeAncestors: input.include_ancestors ?? true,
  includeDescendants: input.include_descendants ?? false,
  updatedBefore: input.updated_before ?? undefined,
  updatedAfter: input.updated_after ?? undefined,
});

export function iterationListRoutes(service: IterationService, groups: GroupDirectory): Route[] {
  async function list(ctx: RouteContext<'optional'>, input: ListInput, group: IterationGroup | null) {
    if (!group) return page([], 0);
    const { perPage, offset } = ctx.page;
    const { items, count } = await service.list(ctx.user, group, listOptions(input), perPage, offset);
    return page(
      items.map((item) => relinkWebUrl(ctx, presentIteration(item))),
      await totalFor(ctx.page, items.length, count),
    );
  }

  return [
    defineRoute({
      method: 'GET',
      path: '/groups/:id/iterations',
      response: { schema: iterationSchema },
      auth: 'optional',
      paginated: true,
      input: listParams,
      // GitLab finds the group in the endpoint, after Grape has validated the filters: a bad filter is a 400 even where the group is hidden.
      handler: async (ctx, input) => list(ctx, input, await groups.require(ctx.user, ctx.params.id)),
    }),
    defineRoute({
      method: 'GET',
      path: '/projects/:id/iterations',
      response: { schema: iterationSchema },
      auth: 'optional',
      paginated: true,
      input: listParams,
      // GitLab has no project iterations any more: a project lists its group's (and that group's ancestors').
      handler: async (ctx, input) => list(ctx, input, await groups.ofProject(ctx.user, ctx.params.id)),
    }),
  ];
}
