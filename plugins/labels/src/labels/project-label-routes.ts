/** `/projects/:id/labels`: a project's labels and its groups', with priorities. */
import { apiError, created, defineRoute, f, forbidden, noContent, page, params, reply, rules, type Principal, type Route } from '@forgekit/kernel';
import { AccessLevel, ARCHIVED_PROJECT_GUARD, type AccessService } from '@forgekit/plugin-core/contracts';
import type { Label } from '../contracts.js';
import { projectParent, scopeOf } from './label-parent.js';
import { labelSchema } from './label-schemas.js';
import type { LabelInput, LabelService } from './label-service.js';
import type { LabelViews } from './label-views.js';

const updateFields = {
  new_name: f.optional(f.string()),
  color: f.optional(f.string()),
  description: f.optional(f.string()),
  priority: f.optional(f.integer()),
  archived: f.optional(f.boolean()),
};
const atLeastOneChange = rules.atLeastOneOf('new_name', 'color', 'description', 'priority', 'archived');

/** `groupOfProject`: a project's own group, null for a personal project (promotion merges within the group). */
export function projectLabelRoutes(
  labels: LabelService,
  views: LabelViews,
  access: AccessService,
  groupOfProject: (projectId: number) => Promise<number | null>,
): Route[] {
  const projectOf = (user: Principal, id: string, minLevel = 0) => access.requireProject(user, id, minLevel);
  const view = (label: Label, user: Principal, projectId: number) => views.one(label, { userId: user.id, projectId });

  /**
   * Update and delete see the project's labels and its own group's, not further ancestors';
   * a group label needs the caller's role in the group.
   */
  async function ownLabel(user: Principal, id: string, idOrTitle: string) {
    const found = await projectOf(user, id, AccessLevel.PLANNER);
    const label = await labels.find(scopeOf(projectParent(found.project), false), idOrTitle);
    if (label.groupId !== null && !user.isAdmin && (found.groupLevel ?? 0) < AccessLevel.PLANNER) throw forbidden();
    return { label, projectId: found.project.id };
  }

  async function update(user: Principal, id: string, idOrTitle: string, input: LabelInput & { priority?: number | null }) {
    const { label, projectId } = await ownLabel(user, id, idOrTitle);
    const updated = await labels.update(label, input, user.id);
    if (input.priority !== undefined) await labels.setPriority(projectId, updated, input.priority ?? null);
    return view(updated, user, projectId);
  }

  async function remove(user: Principal, id: string, idOrTitle: string, unmodifiedSince: string | undefined) {
    const { label } = await ownLabel(user, id, idOrTitle);
    await labels.remove(label, user.id, unmodifiedSince);
    return noContent();
  }

  /** The group label a project label becomes (or is merged into), shown as the group's. */
  async function promote(user: Principal, id: string, idOrTitle: string) {
    const found = await projectOf(user, id);
    const parent = projectParent(found.project);
    const groupId = parent.kind === 'project' ? parent.groupIds.at(-1) : undefined;
    if (groupId === undefined) throw apiError(400, 'Failed to promote project label to group label');
    if (!user.isAdmin && (found.groupLevel ?? 0) < AccessLevel.PLANNER) throw forbidden();
    const label = await labels.find(scopeOf(parent, false), idOrTitle);
    return views.one(await labels.promote(label, groupId, user.id, groupOfProject), { userId: user.id });
  }

  return [
    defineRoute({
      method: 'GET',
      path: '/projects/:id/labels',
      response: { schema: labelSchema },
      paginated: true,
      input: params({
        with_counts: f.optional(f.boolean(), false),
        include_ancestor_groups: f.optional(f.boolean(), true),
        search: f.optional(f.string()),
        archived: f.optional(f.boolean()),
      }),
      async handler(ctx, input) {
        const { items, total } = await views.keptPage(ctx, input, async () => {
          const found = await projectOf(ctx.user, ctx.params.id);
          const { project } = found;
          const scope = scopeOf(projectParent(project), input.include_ancestor_groups !== false);
          const filter = { search: input.search, archived: input.archived };
          const viewer = { userId: ctx.user.id, projectId: project.id };
          const { labels: list, subscribed, total } = await labels.page(scope, filter, ctx.page, viewer);
          const counts = input.with_counts ? { user: ctx.user, kind: 'project' as const, access: found } : undefined;
          return { items: await views.list(list, { ...viewer, counts }, { subscribed }), total };
        });
        return page(items, total);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/projects/:id/labels/:label_id',
      response: { schema: labelSchema },
      input: params({ include_ancestor_groups: f.optional(f.boolean(), true) }),
      async handler(ctx, input) {
        const { project } = await projectOf(ctx.user, ctx.params.id);
        const label = await labels.find(scopeOf(projectParent(project), input.include_ancestor_groups !== false), ctx.params.label_id);
        return view(label, ctx.user, project.id);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/projects/:id/labels',
      response: { schema: labelSchema, errors: [409] },
      input: params({
        name: f.string(),
        color: f.string(),
        description: f.optional(f.string()),
        archived: f.optional(f.boolean()),
        priority: f.optional(f.integer()),
      }),
      async handler(ctx, input) {
        const { project } = await projectOf(ctx.user, ctx.params.id, AccessLevel.PLANNER);
        const label = await labels.create(projectParent(project), input, ctx.user.id);
        if (typeof input.priority === 'number') await labels.setPriority(project.id, label, input.priority);
        return created(await view(label, ctx.user, project.id));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/projects/:id/labels/:label_id',
      response: { schema: labelSchema },
      input: params(updateFields, atLeastOneChange),
      handler: (ctx, input) => update(ctx.user, ctx.params.id, ctx.params.label_id, input),
    }),
    defineRoute({
      method: 'PUT',
      path: '/projects/:id/labels',
      response: { schema: labelSchema },
      input: params({ label_id: f.optional(f.id()), name: f.optional(f.string()), ...updateFields }, atLeastOneChange, rules.exactlyOneOf('label_id', 'name')),
      handler: (ctx, input) => update(ctx.user, ctx.params.id, String(input.label_id ?? input.name), { ...input, name: undefined }),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/projects/:id/labels/:label_id',
      response: { status: 204, errors: [412] },
      handler: (ctx) => remove(ctx.user, ctx.params.id, ctx.params.label_id, ctx.header('If-Unmodified-Since')),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/projects/:id/labels',
      response: { status: 204, errors: [412] },
      input: params({ label_id: f.optional(f.id()), name: f.optional(f.string()) }, rules.exactlyOneOf('label_id', 'name')),
      handler: (ctx, input) => remove(ctx.user, ctx.params.id, String(input.label_id ?? input.name), ctx.header('If-Unmodified-Since')),
    }),
    defineRoute({
      method: 'PUT',
      path: '/projects/:id/labels/:label_id/promote',
      response: { schema: labelSchema, errors: [400] },
      handler: (ctx) => promote(ctx.user, ctx.params.id, ctx.params.label_id),
    }),
    defineRoute({
      method: 'PUT',
      path: '/projects/:id/labels/promote',
      response: { schema: labelSchema, errors: [400] },
      input: params({ name: f.string() }),
      handler: (ctx, input) => promote(ctx.user, ctx.params.id, input.name),
    }),
    defineRoute({
      method: 'POST',
      path: '/projects/:id/labels/:label_id/subscribe',
      response: { schema: labelSchema, alternatives: { 304: null } },
      // A subscription is the caller's own setting, not a change to the project.
      exemptFrom: [ARCHIVED_PROJECT_GUARD],
      async handler(ctx) {
        const { project } = await projectOf(ctx.user, ctx.params.id);
        const label = await labels.find(scopeOf(projectParent(project)), ctx.params.label_id);
        if (!(await labels.subscribe(ctx.user.id, label, project.id))) return reply(304, null);
        return created(await view(label, ctx.user, project.id));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/projects/:id/labels/:label_id/unsubscribe',
      response: { schema: labelSchema, alternatives: { 304: null } },
      // A subscription is the caller's own setting, not a change to the project.
      exemptFrom: [ARCHIVED_PROJECT_GUARD],
      async handler(ctx) {
        const { project } = await projectOf(ctx.user, ctx.params.id);
        const label = await labels.find(scopeOf(projectParent(project)), ctx.params.label_id);
        if (!(await labels.unsubscribe(ctx.user.id, label, project.id))) return reply(304, null);
        return created(await view(label, ctx.user, project.id));
      },
    }),
  ];
}
