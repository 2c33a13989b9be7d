import { created, defineRoute, noContent, page, recordNotFound, type RequestContext, type Route } from '@forgekit/kernel';
import type { Project } from '@forgekit/plugin-core/contracts';
import type { FeatureFlagsProjectAccess } from '../shared/project-access.js';
import { createUserListParams, listUserListParams, updateUserListParams } from './user-list-params.js';
import { userListEntity } from './user-list-presenter.js';
import { userListSchema } from './user-list-schemas.js';
import type { UserListService } from './user-list-service.js';

/** `/projects/:id/feature_flags_user_lists`: Developer and above; single lists by iid. */
export function userListRoutes(userLists: UserListService, projectAccess: FeatureFlagsProjectAccess): Route[] {
  async function listOf(project: Project, iid: string) {
    const list = await userLists.findByIid(project.id, iid);
    if (!list) throw recordNotFound();
    return list;
  }

  const requireProject = (ctx: RequestContext) => projectAccess(ctx.user, ctx.params.id!);

  return [
    defineRoute({
      method: 'GET',
      path: '/projects/:id/feature_flags_user_lists',
      paginated: true,
      response: { schema: userListSchema },
      before: requireProject,
      paramErrors: 'message',
      input: listUserListParams,
      async handler(ctx, { search }, project) {
        const { items, total } = await userLists.list(project.id, search, ctx.page);
        return page(
          items.map((list) => userListEntity(list, project, ctx.externalUrl)),
          total,
        );
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/projects/:id/feature_flags_user_lists',
      response: { schema: userListSchema },
      before: requireProject,
      paramErrors: 'message',
      input: createUserListParams,
      async handler(ctx, input, project) {
        return created(userListEntity(await userLists.create(project.id, input), project, ctx.externalUrl));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/projects/:id/feature_flags_user_lists/:iid',
      response: { schema: userListSchema },
      before: requireProject,
      async handler(ctx, _input, project) {
        return userListEntity(await listOf(project, ctx.params.iid!), project, ctx.externalUrl);
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/projects/:id/feature_flags_user_lists/:iid',
      response: { schema: userListSchema },
      before: requireProject,
      paramErrors: 'message',
      input: updateUserListParams,
      async handler(ctx, input, project) {
        const list = await listOf(project, ctx.params.iid!);
        return userListEntity(await userLists.update(list, input), project, ctx.externalUrl);
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/projects/:id/feature_flags_user_lists/:iid',
      // 409: a strategy uses the list.
      response: { status: 204, errors: [409] },
      before: requireProject,
      async handler(ctx, _input, project) {
        await userLists.remove(await listOf(project, ctx.params.iid!));
        return noContent();
      },
    }),
  ];
}
