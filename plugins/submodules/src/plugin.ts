import { definePlugin } from '@forgekit/kernel';
import { coreAccessRef, coreProjectsRef, coreUsersRef } from '@forgekit/plugin-core';
import { branchProtectionRef, createProjectRepositories, repositoriesServiceRef } from '@forgekit/plugin-repositories';
import { submoduleRoutes } from './submodules/submodule-routes.js';

/** Updates a submodule's pointer in a project repository with a new commit. */
export const submodulesPlugin = definePlugin({
  id: 'submodules',
  compatibility: '^0.1.0',
  requires: [repositoriesServiceRef, branchProtectionRef, coreAccessRef, coreProjectsRef, coreUsersRef],
  register(ctx) {
    const repos = ctx.resolve(repositoriesServiceRef);
    const projectRepos = createProjectRepositories(ctx.resolve(coreAccessRef), ctx.resolve(coreProjectsRef), ctx.resolve(coreUsersRef), repos);
    ctx.routes(...submoduleRoutes(repos, projectRepos, ctx.resolve(branchProtectionRef)));
  },
});
