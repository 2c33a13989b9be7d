import { definePlugin } from '@forgekit/kernel';
import { branchProtectionRef, repositoryReadRef, repositoryWriteRef } from '@forgekit/plugin-repositories/contracts';
import { submoduleRoutes } from './submodules/submodule-routes.js';

/** Updates a submodule's pointer in a project repository with a new commit. */
export const submodulesPlugin = definePlugin({
  id: 'submodules',
  compatibility: '^0.1.0',
  requires: [repositoryReadRef, repositoryWriteRef, branchProtectionRef],
  register(ctx) {
    ctx.routes(...submoduleRoutes(ctx.resolve(repositoryReadRef), ctx.resolve(repositoryWriteRef), ctx.resolve(branchProtectionRef)));
  },
});
