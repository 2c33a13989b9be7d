import { created, defineRoute, page, recordNotFound, type RequestContext, type Route } from '@forgekit/kernel';
import type { Project } from '@forgekit/plugin-core/contracts';
import type { FeatureFlagsProjectAccess } from '../shared/project-access.js';
import { createFlagParams, listFlagParams, updateFlagParams } from './flag-params.js';
import { flagEntity } from './flag-presenter.js';
import { flagSchema } from './flag-schemas.js';
import type { FlagService } from './flag-service.js';

/** `/projects/:id/feature_flags`: Developer and above, for reads and writes alike. */
export function flagRoutes(flags: FlagService, projectAccess: FeatureFlagsProjectAccess): Route[] {
  async function flagOf(project: Project, name: string) {
    const loaded = await flags.findByName(project.id, name);
    if (!loaded) throw recordNotFound();
    return loaded;
  }

  const requireProject = (ctx: RequestContext) => projectAccess(ctx.user, ctx.params.id!);

  return [
    defineRoute({
      method: 'GET',
      path: '/projects/:id/feature_flags',
      paginated: true,
      response: { schema: flagSchema },
      before: requireProject,
      input: listFlagParams,
      async handler(ctx, input, project) {
        const { items, total } = await flags.list(project.id, input.scope, ctx.page);
        return page(items.map(flagEntity), total);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/projects/:id/feature_flags',
      // 409: a concurrent create got in the way, and the caller may retry.
      response: { schema: flagSchema, errors: [409] },
      before: requireProject,
      input: createFlagParams,
      async handler(_ctx, input, project) {
        return created(flagEntity(await flags.create(project.id, input)));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/projects/:id/feature_flags/:feature_flag_name',
      response: { schema: flagSchema },
      before: requireProject,
      async handler(ctx, _input, project) {
        return flagEntity(await flagOf(project, ctx.params.feature_flag_name!));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/projects/:id/feature_flags/:feature_flag_name',
      response: { schema: flagSchema },
      before: requireProject,
      input: updateFlagParams,
      async handler(ctx, input, project) {
        const loaded = await flagOf(project, ctx.params.feature_flag_name!);
        return flagEntity(await flags.update(loaded, input));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/projects/:id/feature_flags/:feature_flag_name',
      response: { schema: flagSchema },
      before: requireProject,
      async handler(ctx, _input, project) {
        const loaded = await flagOf(project, ctx.params.feature_flag_name!);
        await flags.remove(loaded);
        // GitLab answers 200 with the deleted flag, not 204.
        return flagEntity(loaded);
      },
    }),
  ];
}
