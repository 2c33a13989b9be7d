/**
 * The REST extension for iteration cadences (GitLab manages them through GraphQL):
 * /groups/:id/iteration_cadences, and the manual iterations of a cadence.
 */
import { created, defineRoute, f, noContent, notFound, page, params, relinkWebUrl, totalFor, type Principal, type Route } from '@forgekit/kernel';
import { recordId } from '@forgekit/kernel/orm';
import { AccessLevel } from '@forgekit/plugin-core/contracts';
import type { GroupDirectory } from '../groups/group-directory.js';
import { presentIteration } from '../iterations/iteration-presenter.js';
import { iterationSchema } from '../iterations/iteration-schemas.js';
import type { IterationService } from '../iterations/iteration-service.js';
import { presentCadence } from './cadence-presenter.js';
import { cadenceSchema } from './cadence-schemas.js';
import type { CadenceService } from './cadence-service.js';

/** Creating and changing cadences and their iterations, as GitLab's `admin_iteration_cadence`. */
export const MANAGE_LEVEL = AccessLevel.PLANNER;

const cadenceFields = {
  description: f.optional(f.string()),
  automatic: f.optional(f.boolean()),
  active: f.optional(f.boolean()),
  roll_over: f.optional(f.boolean()),
  start_date: f.optional(f.date()),
  duration_in_weeks: f.optional(f.integer()),
  iterations_in_advance: f.optional(f.integer()),
};
const createParams = params({ title: f.string(), ...cadenceFields });
const updateParams = params({ title: f.optional(f.string()), ...cadenceFields });

const iterationCreateParams = params({
  title: f.optional(f.string()),
  description: f.optional(f.string()),
  start_date: f.date(),
  due_date: f.date(),
});
const iterationUpdateParams = params({
  title: f.optional(f.string()),
  description: f.optional(f.string()),
  start_date: f.optional(f.date()),
  due_date: f.optional(f.date()),
});

/** Drops nulls of fields that cannot be null, so "sent empty" leaves them as they are. */
const withoutNulls = <T extends Record<string, unknown>, K extends keyof T>(input: T, keys: readonly K[]) => {
  const copy = { ...input };
  for (const key of keys) if (copy[key] === null) delete copy[key];
  return copy as Omit<T, K> & { [P in K]: Exclude<T[P], null> };
};
const NOT_NULL = ['title', 'automatic', 'active', 'roll_over'] as const;

export function cadenceRoutes(cadences: CadenceService, iterations: IterationService, groups: GroupDirectory): Route[] {
  const base = '/groups/:id/iteration_cadences';
  const item = `${base}/:cadence_id`;

  const cadenceOf = async (groupId: number, idText: string) => {
    const id = recordId(idText);
    if (id === null) throw notFound('Iteration Cadence');
    return cadences.find(groupId, id);
  };
  const iterationOf = async (group: Parameters<IterationService['find']>[0], idText: string) => {
    const id = recordId(idText);
    if (id === null) throw notFound('Iteration');
    return iterations.find(group, id);
  };
  const manager = (user: Principal, idOrPath: string) => groups.require(user, idOrPath, MANAGE_LEVEL);

  return [
    defineRoute({
      method: 'GET',
      path: base,
      response: { schema: cadenceSchema },
      auth: 'optional',
      paginated: true,
      before: (ctx) => groups.require(ctx.user, ctx.params.id),
      async handler(ctx, _input, group) {
        const { perPage, offset } = ctx.page;
        const found = await cadences.page(group.id, perPage, offset);
        return page(found.map(presentCadence), await totalFor(ctx.page, found.length, () => cadences.count(group.id)));
      },
    }),
    defineRoute({
      method: 'GET',
      path: item,
      response: { schema: cadenceSchema },
      auth: 'optional',
      before: (ctx) => groups.require(ctx.user, ctx.params.id),
      handler: async (ctx, _input, group) => presentCadence(await cadenceOf(group.id, ctx.params.cadence_id)),
    }),
    defineRoute({
      method: 'POST',
      path: base,
      response: { schema: cadenceSchema },
      input: createParams,
      before: (ctx) => manager(ctx.user, ctx.params.id),
      handler: async (_ctx, input, group) => created(presentCadence(await cadences.create(group.id, withoutNulls(input, NOT_NULL)))),
    }),
    defineRoute({
      method: 'PUT',
      path: item,
      response: { schema: cadenceSchema },
      input: updateParams,
      before: (ctx) => manager(ctx.user, ctx.params.id),
      async handler(ctx, input, group) {
        const cadence = await cadenceOf(group.id, ctx.params.cadence_id);
        return presentCadence(await cadences.update(cadence, withoutNulls(input, NOT_NULL)));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: item,
      response: { status: 204 },
      before: (ctx) => manager(ctx.user, ctx.params.id),
      async handler(ctx, _input, group) {
        await cadences.remove(await cadenceOf(group.id, ctx.params.cadence_id));
        return noContent();
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${item}/iterations`,
      response: { schema: iterationSchema },
      input: iterationCreateParams,
      before: (ctx) => manager(ctx.user, ctx.params.id),
      async handler(ctx, input, group) {
        const cadence = await cadenceOf(group.id, ctx.params.cadence_id);
        return created(relinkWebUrl(ctx, presentIteration(await iterations.create(group, cadence, input))));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: `${item}/iterations/:iteration_id`,
      response: { schema: iterationSchema },
      input: iterationUpdateParams,
      before: (ctx) => manager(ctx.user, ctx.params.id),
      async handler(ctx, input, group) {
        const cadence = await cadenceOf(group.id, ctx.params.cadence_id);
        const iteration = await iterationOf(group, ctx.params.iteration_id);
        if (iteration.cadenceId !== cadence.id) throw notFound('Iteration');
        return relinkWebUrl(ctx, presentIteration(await iterations.update(group, cadence, iteration, withoutNulls(input, ['start_date', 'due_date']))));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `${item}/iterations/:iteration_id`,
      response: { status: 204 },
      before: (ctx) => manager(ctx.user, ctx.params.id),
      async handler(ctx, _input, group) {
        const cadence = await cadenceOf(group.id, ctx.params.cadence_id);
        const iteration = await iterationOf(group, ctx.params.iteration_id);
        if (iteration.cadenceId !== cadence.id) throw notFound('Iteration');
        await iterations.remove(iteration);
        return noContent();
      },
    }),
  ];
}
