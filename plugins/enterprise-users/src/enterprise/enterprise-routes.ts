/** `/groups/:id/enterprise_users[/:user_id[/disable_two_factor]]`, for Owners of a top-level group. */
import { defineRoute, f, noContent, page, params, type Route, type RouteContext } from '@forgekit/kernel';
import type { User, UserService } from '@forgekit/plugin-core/contracts';
import { userPublic } from '@forgekit/plugin-core/contracts';
import type { EnterpriseService } from './enterprise-service.js';
import { enterpriseUserSchema } from './enterprise-user-schemas.js';

export function enterpriseRoutes(service: EnterpriseService, users: UserService): Route[] {
  const base = '/groups/:id/enterprise_users';
  const userId = params({ user_id: f.id() });

  /** GitLab's `UserPublic` with the fields its enterprise-user entity adds, and the plugins' user fields. */
  async function present(ctx: Pick<RouteContext, 'externalUrl'> & { user: { id: number; isAdmin: boolean } }, list: readonly User[]) {
    const entries = list.map((user) => ({
      user,
      body: {
        ...userPublic(user, ctx.externalUrl),
        shared_runners_minutes_limit: null,
        extra_shared_runners_minutes_limit: null,
        scim_identities: [],
      } as Record<string, unknown>,
    }));
    await users.applyFieldExtensions(entries, { id: ctx.user.id, isAdmin: ctx.user.isAdmin });
    return entries.map((entry) => entry.body);
  }

  return [
    defineRoute({
      method: 'GET',
      path: base,
      paginated: true,
      input: params({
        username: f.optional(f.string()),
        search: f.optional(f.string()),
        active: f.optional(f.boolean(), false),
        blocked: f.optional(f.boolean(), false),
        created_after: f.optional(f.datetime()),
        created_before: f.optional(f.datetime()),
        two_factor: f.optional(f.values(['enabled', 'disabled'] as const)),
      }),
      response: { schema: enterpriseUserSchema },
      before: (ctx) => service.groupFor(ctx.user, ctx.params.id),
      async handler(ctx, input, group) {
        const found = await service.list(group, {
          username: input.username,
          search: input.search,
          active: input.active,
          blocked: input.blocked,
          createdAfter: input.created_after,
          createdBefore: input.created_before,
          twoFactor: input.two_factor,
        });
        const { perPage, offset } = ctx.page;
        return page(await present(ctx, found.slice(offset, offset + perPage)), found.length);
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${base}/:user_id`,
      input: userId,
      response: { schema: enterpriseUserSchema },
      before: (ctx) => service.groupFor(ctx.user, ctx.params.id),
      handler: async (ctx, input, group) => (await present(ctx, [await service.get(group, input.user_id)]))[0],
    }),
    defineRoute({
      method: 'PATCH',
      path: `${base}/:user_id`,
      input: params({ user_id: f.id(), name: f.optional(f.string()), email: f.optional(f.string()) }),
      response: { schema: enterpriseUserSchema },
      before: (ctx) => service.groupFor(ctx.user, ctx.params.id),
      handler: async (ctx, input, group) => (await present(ctx, [await service.update(ctx.user, group, input.user_id, input)]))[0],
    }),
    defineRoute({
      method: 'DELETE',
      path: `${base}/:user_id`,
      input: params({ user_id: f.id(), hard_delete: f.optional(f.boolean(), false) }),
      // 409: the user is the sole owner of a group; 412: changed since `If-Unmodified-Since`.
      response: { status: 204, errors: [409, 412] },
      before: (ctx) => service.groupFor(ctx.user, ctx.params.id),
      async handler(ctx, input, group) {
        await service.remove(group, input.user_id, input.hard_delete === true, ctx.header('If-Unmodified-Since'));
        return noContent();
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: `${base}/:user_id/disable_two_factor`,
      input: userId,
      response: { status: 204 },
      before: (ctx) => service.groupFor(ctx.user, ctx.params.id),
      async handler(_ctx, input, group) {
        await service.disableTwoFactor(group, input.user_id);
        return noContent();
      },
    }),
  ];
}
