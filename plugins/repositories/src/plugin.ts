import { kernelServices, definePlugin } from '@forgekit/kernel';
import { coreAccessRef, coreGroupsRef, coreProjectsRef, coreSettingsRef, coreUsersRef } from '@forgekit/plugin-core/contracts';
import { branchRoutes } from './branches/branch-routes.js';
import { commitRoutes } from './commits/commit-routes.js';
import { compareRoutes } from './compare/compare-routes.js';
import { ProtectedBranchAccessLevelEntity, ProtectedBranchEntity } from './entities/protected-branch.js';
import { RepositoryEntity } from './entities/repository.js';
import { fileRoutes } from './files/file-routes.js';
import { checkGitInstalled } from './git/git-runner.js';
import { gitHttpRoutes } from './git-http/git-http-routes.js';
import { createGitPaths } from './git-http/git-paths.js';
import { init } from './migrations/202611231000-init.js';
import { protectedBranches } from './migrations/202611241000-protected-branches.js';
import { registerProjectLifecycle } from './projects/project-lifecycle.js';
import { createHousekeeping, HOUSEKEEPING_JOB } from './projects/housekeeping.js';
import { postReceive, POST_RECEIVE_JOB } from './projects/push-events.js';
import { createBranchProtection } from './protected-branches/branch-protection.js';
import { protectDefaultBranches } from './protected-branches/default-branch-protection.js';
import { protectedBranchRoutes } from './protected-branches/protected-branch-routes.js';
import { createProtectedBranchStore } from './protected-branches/protected-branch-store.js';
import { defineProtectionSettings } from './protected-branches/protection-settings.js';
import { branchProtectionRef, gitPathsRef, repositoriesServiceRef, repositoryPlacementRef, repositoryReadRef, repositoryWriteRef } from './contracts.js';
import { createProjectRepositories } from './shared/project-repository.js';
import type { RouteDeps } from './shared/route-deps.js';
import { createRepositoryPlacement } from './storage/repository-placement.js';
import { createRepositoryService } from './storage/repository-service.js';
import { RepositoriesConfigSchema, resolveStorages, weightsField, type RepositoriesConfig } from './storage/storages.js';
import { tagRoutes } from './tags/tag-routes.js';
import { treeRoutes } from './tree/tree-routes.js';

/** Git repositories on named storages: the repository service, project repositories, their API and git over HTTP. */
export const repositoriesPlugin = definePlugin<RepositoriesConfig>({
  id: 'repositories',
  compatibility: '^0.1.0',
  config: RepositoriesConfigSchema,
  entities: [RepositoryEntity, ProtectedBranchEntity, ProtectedBranchAccessLevelEntity],
  migrations: [init, protectedBranches],
  requires: [coreAccessRef, coreProjectsRef, coreUsersRef, coreSettingsRef, coreGroupsRef],
  provides: [repositoryReadRef, repositoryWriteRef, repositoryPlacementRef, repositoriesServiceRef, branchProtectionRef, gitPathsRef],
  async register(ctx) {
    await checkGitInstalled();
    const database = ctx.resolve(kernelServices.database);
    const { dataDir, externalUrl } = ctx.resolve(kernelServices.instance);
    const access = ctx.resolve(coreAccessRef);
    const projects = ctx.resolve(coreProjectsRef);
    const users = ctx.resolve(coreUsersRef);
    const settings = ctx.resolve(coreSettingsRef);
    const groups = ctx.resolve(coreGroupsRef);

    const storages = resolveStorages(ctx.config, dataDir);
    settings.define('repositories', 'repository_storages_weighted', weightsField(storages), { default: 100 });
    defineProtectionSettings(settings);
    const repos = createRepositoryService({
      database,
      storages,
      weights: async () => (await settings.get('repository_storages_weighted')) as Record<string, number>,
    });
    const projectRepos = createProjectRepositories(access, projects, users, repos);
    ctx.lifecycle.onStop(() => repos.closeProcesses());
    ctx.provide(repositoriesServiceRef, repos);
    ctx.provide(repositoryReadRef, { ...repos, forRead: projectRepos.forRead });
    ctx.provide(repositoryWriteRef, { ...repos, forWrite: projectRepos.forWrite, pusher: projectRepos.pusher });
    ctx.provide(repositoryPlacementRef, createRepositoryPlacement(repos));
    const protectedBranches = createProtectedBranchStore(database);
    const protection = createBranchProtection({ store: protectedBranches, access, projects, groups, settings, repos });
    ctx.provide(branchProtectionRef, protection);
    const gitPaths = createGitPaths();
    ctx.provide(gitPathsRef, gitPaths);

    const housekeeping = createHousekeeping(repos, ctx.jobs, ctx.log);
    ctx.jobs.define(HOUSEKEEPING_JOB, (data: { repositoryId?: number } | undefined) => housekeeping.run(data ?? {}));
    ctx.jobs.define(POST_RECEIVE_JOB, postReceive(ctx.events, projects, repos, externalUrl, protection));
    // First, so a new default branch is protected before its push event is built.
    protectDefaultBranches({ events: ctx.events, projects, repos, protection, store: protectedBranches });
    repos.onRefsUpdated(async ({ repository, updates, pusher }) => {
      if (repository.kind === 'project') await ctx.jobs.enqueue(POST_RECEIVE_JOB, { repositoryId: repository.id, updates, pusher });
      await housekeeping.noteWrite(repository.id);
    });
    registerProjectLifecycle({ events: ctx.events, projects, users, repos, log: ctx.log });

    const deps: RouteDeps = { repos, projectRepos, projects, access, protection, protectedBranches };
    ctx.routes(
      ...commitRoutes(deps),
      ...branchRoutes(deps),
      ...tagRoutes(deps),
      ...treeRoutes(deps),
      ...fileRoutes(deps),
      ...compareRoutes(deps),
      ...protectedBranchRoutes({ store: protectedBranches, access, projectRepos }),
      ...gitHttpRoutes({ access, projects, repos, projectRepos, protection, gitPaths }),
    );
  },
});
