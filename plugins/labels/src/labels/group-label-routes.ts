/** `/groups/:id/labels`: a group's labels, with its ancestors' and on request its descendants'. */
import { created, defineRoute, f, noContent, page, params, reply, rules, type Principal, type Route } from '@forgekit/kernel';
import { AccessLevel, type AccessService, type GroupAccess } from '@forgekit/plugin-core/contracts';
import { groupParent, scopeOf } from './label-parent.js';
import { labelSchema } from './label-schemas.js';
import type { LabelService } from './label-service.js';
import type { LabelScope } from './label-store.js';
import type { LabelViews } from './label-views.js';

const scopeFlags = {
  include_ancestor_groups: f.optional(f.boolean(), true),
  include_descendant_groups: f.optional(f.boolean(), false),
  only_group_labels: f.optional(f.boolean(), true),
};
const updateFields = {
  new_name: f.optional(f.string()),
  color: f.optional(f.string()),
  description: f.optional(f.string()),
  archived: f.optional(f.boolean()),
};
const atLeastOneChange = rules.atLeastOneOf('new_name', 'color', 'description', 'archived');

export function groupLabelRoutes(labels: LabelService, views: LabelViews, access: AccessService): Route[] {
  const groupOf = async (user: Principal, id: string, minLevel = 0) => groupParent((await access.requireGroup(user, id, minLevel)).group);

  /** The labels a group's list or lookup sees, as the three flags ask. */
  async function scopeFor(
    user: Principal,
    id: string,
    flags: { include_ancestor_groups: boolean | null; include_descendant_groups: boolean | null; only_group_labels: boolean | null },
  ): Promise<{ scope: LabelScope; access: GroupAccess }> {
    const found = await access.requireGroup(user, id);
    const parent = groupParent(found.group);
    const scope = scopeOf(parent, flags.include_ancestor_groups !== false);
    if (!flags.include_descendant_groups || parent.kind !== 'group') return { scope, access: found };
    const descendants = await access.visibleGroupIds(user, { underTraversalPath: parent.traversalPath });
    const projectIds = flags.only_group_labels === false ? await access.visibleProjectIds(user, { underTraversalPath: parent.traversalPath }) : [];
    return { scope: { projectIds, groupIds: [...new Set([...scope.groupIds, ...descendants])] }, access: found };
  }

  /** Update and delete see only the group's own labels. */
  const ownLabel = async (user: Principal, id: string, idOrTitle: string) => {
    const parent = await groupOf(user, id, AccessLevel.PLANNER);
    return labels.find(scopeOf(parent, false), idOrTitle);
  };

  const view = { one: (label: Parameters<LabelViews['one']>[0], user: Principal) => views.one(label, { userId: user.id }) };

  return [
    defineRoute({
      method: 'GET',
      path: '/groups/:id/labels',
      response: { schema: labelSchema },
      paginated: true,
      input: params({ with_counts: f.optional(f.boolean(), false), ...scopeFlags, search: f.optional(f.string()), archived: f.optional(f.boolean()) }),
      async handler(ctx, input) {
        const { items, total } = await views.keptPage(ctx, input, async () => {
          const { scope, access: found } = await scopeFor(ctx.user, ctx.params.id, input);
          const filter = { search: input.search, archived: input.archived };
          const viewer = { userId: ctx.user.id };
          const { labels: list, subscribed, total } = await labels.page(scope, filter, ctx.page, viewer);
          const counts = input.with_counts ? { user: ctx.user, kind: 'group' as const, access: found } : undefined;
          return { items: await views.list(list, { ...viewer, counts }, { subscribed }), total };
        });
        return page(items, total);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/groups/:id/labels/:label_id',
      response: { schema: labelSchema },
      input: params(scopeFlags),
      async handler(ctx, input) {
        const label = await labels.find((await scopeFor(ctx.user, ctx.params.id, input)).scope, ctx.params.label_id);
        return view.one(label, ctx.user);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/groups/:id/labels',
      response: { schema: labelSchema, errors: [409] },
      input: params({ name: f.string(), color: f.string(), description: f.optional(f.string()), archived: f.optional(f.boolean()) }),
      async handler(ctx, input) {
        const parent = await groupOf(ctx.user, ctx.params.id, AccessLevel.PLANNER);
        return created(await view.one(await labels.create(parent, input, ctx.user.id), ctx.user));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/groups/:id/labels/:label_id',
      response: { schema: labelSchema },
      input: params(updateFields, atLeastOneChange),
      async handler(ctx, input) {
        const label = await ownLabel(ctx.user, ctx.params.id, ctx.params.label_id);
        return view.one(await labels.update(label, input, ctx.user.id), ctx.user);
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/groups/:id/labels',
      response: { schema: labelSchema },
      input: params({ label_id: f.optional(f.id()), name: f.optional(f.string()), ...updateFields }, atLeastOneChange, rules.exactlyOneOf('label_id', 'name')),
      async handler(ctx, input) {
        const label = await ownLabel(ctx.user, ctx.params.id, String(input.label_id ?? input.name));
        return view.one(await labels.update(label, { ...input, name: undefined }, ctx.user.id), ctx.user);
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/groups/:id/labels/:label_id',
      response: { status: 204, errors: [412] },
      async handler(ctx) {
        const label = await ownLabel(ctx.user, ctx.params.id, ctx.params.label_id);
        await labels.remove(label, ctx.user.id, ctx.header('If-Unmodified-Since'));
        return noContent();
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/groups/:id/labels',
      response: { status: 204, errors: [412] },
      input: params({ name: f.string() }),
      async handler(ctx, input) {
        const label = await ownLabel(ctx.user, ctx.params.id, input.name);
        await labels.remove(label, ctx.user.id, ctx.header('If-Unmodified-Since'));
        return noContent();
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/groups/:id/labels/:label_id/subscribe',
      response: { schema: labelSchema, alternatives: { 304: null } },
      async handler(ctx) {
        const label = await labels.find(scopeOf(await groupOf(ctx.user, ctx.params.id)), ctx.params.label_id);
        if (!(await labels.subscribe(ctx.user.id, label))) return reply(304, null);
        return created(await view.one(label, ctx.user));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/groups/:id/labels/:label_id/unsubscribe',
      response: { schema: labelSchema, alternatives: { 304: null } },
      async handler(ctx) {
        const label = await labels.find(scopeOf(await groupOf(ctx.user, ctx.params.id)), ctx.params.label_id);
        if (!(await labels.unsubscribe(ctx.user.id, label))) return reply(304, null);
        return created(await view.one(label, ctx.user));
      },
    }),
  ];
}
