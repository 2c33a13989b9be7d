import { kernelServices, definePlugin } from '@forgekit/kernel';
import { coreAccessRef, coreEvents } from '@forgekit/plugin-core/contracts';
import { gitPathsRef } from '@forgekit/plugin-repositories/contracts';
import { aliasRoutes } from './aliases/alias-routes.js';
import { createAliasService } from './aliases/alias-service.js';
import { createAliasStore } from './aliases/alias-store.js';
import { ProjectAliasEntity } from './entities/project-alias.js';
import { init } from './migrations/202611271100-init.js';

/** Project aliases: the administrators' API, and `git clone http://host/<alias>.git` when the host composes repositories. */
export const projectAliasesPlugin = definePlugin({
  id: 'project-aliases',
  compatibility: '^0.1.0',
  entities: [ProjectAliasEntity],
  migrations: [init],
  requires: [coreAccessRef],
  optional: [gitPathsRef],
  register(ctx) {
    const service = createAliasService(createAliasStore(ctx.resolve(kernelServices.database)));
    ctx.routes(...aliasRoutes(service, ctx.resolve(coreAccessRef)));
    ctx.resolveOptional(gitPathsRef)?.addResolver(service.projectIdFor);
    ctx.events.on(coreEvents.projectDeleted, async ({ projectId }) => {
      await service.removeAllOf(projectId);
    });
  },
});
