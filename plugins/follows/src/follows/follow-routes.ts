/** `POST /users/:id/follow` and `/unfollow`, `GET /users/:id/followers` and `/following`. */
import { defineRoute, f, page, params, reply, type Route } from '@forgekit/kernel';
import { userBasicBody, userBasicBodySchema } from '../shared/core-fields.js';
import type { FollowService } from './follow-service.js';

export function followRoutes(service: FollowService): Route[] {
  const idParams = params({ id: f.id() });
  return [
    ...(['follow', 'unfollow'] as const).map((action) =>
      defineRoute({
        method: 'POST',
        path: `/users/:id/${action}`,
        input: idParams,
        // 304 when nothing changed: already followed (or oneself), or not followed.
        response: { schema: userBasicBodySchema, alternatives: { 304: null } },
        async handler(ctx, input) {
          const user = await service[action](ctx.user, input.id);
          return user ? reply(201, userBasicBody(user, ctx.externalUrl)) : reply(304, null);
        },
      }),
    ),
    ...(['followers', 'following'] as const).map((list) =>
      defineRoute({
        method: 'GET',
        path: `/users/:id/${list}`,
        // Anonymous callers get GitLab's `403 Forbidden - Not authorized!`, not a 401.
        auth: 'optional',
        scopes: ['read_user'],
        paginated: true,
        input: idParams,
        response: { schema: userBasicBodySchema },
        async handler(ctx, input) {
          const { users, total } = await service[list](ctx.user, input.id, ctx.page.perPage, ctx.page.offset);
          return page(
            users.map((user) => userBasicBody(user, ctx.externalUrl)),
            total,
          );
        },
      }),
    ),
  ];
}
