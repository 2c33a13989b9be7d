/** `/project_aliases`: administrators list, read, create and delete aliases. */
import { created, defineRoute, f, noContent, page, params, totalFor, type Route } from '@forgekit/kernel';
import type { AccessService } from '@forgekit/plugin-core/contracts';
import { projectIdOf } from '../shared/core-fields.js';
import { projectAliasSchema } from './alias-schemas.js';
import type { AliasService } from './alias-service.js';
import type { ProjectAlias } from './alias-store.js';

/** GitLab's `ProjectAlias` entity. */
const present = (alias: ProjectAlias) => ({ id: alias.id, project_id: alias.projectId, name: alias.name });

export function aliasRoutes(service: AliasService, access: AccessService): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/project_aliases',
      auth: 'admin',
      paginated: true,
      response: { schema: projectAliasSchema },
      async handler(ctx) {
        const aliases = await service.list(ctx.page.perPage, ctx.page.offset);
        return page(aliases.map(present), await totalFor(ctx.page, aliases.length, () => service.count()));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/project_aliases/:name',
      auth: 'admin',
      response: { schema: projectAliasSchema },
      handler: async (ctx) => present(await service.find(ctx.params.name)),
    }),
    defineRoute({
      method: 'POST',
      path: '/project_aliases',
      auth: 'admin',
      response: { schema: projectAliasSchema },
      input: params({ project_id: f.string(), name: f.string() }),
      async handler(ctx, input) {
        // An id or a path; `404 Project Not Found` for neither.
        const { project } = await access.requireProject(ctx.user, input.project_id);
        return created(present(await service.create(projectIdOf(project), input.name)));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/project_aliases/:name',
      auth: 'admin',
      response: { status: 204 },
      async handler(ctx) {
        await service.remove(await service.find(ctx.params.name));
        return noContent();
      },
    }),
  ];
}
