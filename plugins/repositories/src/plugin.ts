import { coreServices, definePlugin } from '@forgekit/kernel';
import { coreAccessRef, coreProjectsRef, coreSettingsRef, coreUsersRef } from '@forgekit/plugin-core';
import { branchRoutes } from './branches/branch-routes.js';
import { commitRoutes } from './commits/commit-routes.js';
import { compareRoutes } from './compare/compare-routes.js';
import { RepositoryRecord } from './entities/repository-record.js';
import { fileRoutes } from './files/file-routes.js';
import { checkGitInstalled } from './git/git-runner.js';
import { gitHttpRoutes } from './git-http/git-http-routes.js';
import { init } from './migrations/202611231000-init.js';
import { registerProjectLifecycle } from './projects/project-lifecycle.js';
import { createHousekeeping, HOUSEKEEPING_JOB } from './projects/housekeeping.js';
import { postReceive, POST_RECEIVE_JOB } from './projects/push-events.js';
import { repositoriesServiceRef } from './refs.js';
import { createProjectRepositories } from './shared/project-repository.js';
import type { RouteDeps } from './shared/route-deps.js';
import { createRepositoryService } from './storage/repository-service.js';
import { RepositoriesConfigSchema, resolveStorages, weightsField, type RepositoriesConfig } from './storage/storages.js';
import { tagRoutes } from './tags/tag-routes.js';
import { treeRoutes } from './tree/tree-routes.js';

/** Git repositories on named storages: the repository service, project repositories, their API and git over HTTP. */
export const repositoriesPlugin = definePlugin<RepositoriesConfig>({
  id: 'repositories',
  compatibility: '^0.1.0',
  config: RepositoriesConfigSchema,
  entities: [RepositoryRecord],
  migrations: [init],
  requires: [coreAccessRef, coreProjectsRef, coreUsersRef, coreSettingsRef],
  provides: [repositoriesServiceRef],
  async register(ctx) {
    await checkGitInstalled();
    const { knex: db } = ctx.resolve(coreServices.database);
    const { dataDir, externalUrl } = ctx.resolve(coreServices.instance);
    const access = ctx.resolve(coreAccessRef);
    const projects = ctx.resolve(coreProjectsRef);
    const users = ctx.resolve(coreUsersRef);
    const settings = ctx.resolve(coreSettingsRef);

    const storages = resolveStorages(ctx.config, dataDir);
    settings.define('repositories', 'repository_storages_weighted', weightsField(storages), { default: 100 });
    const repos = createRepositoryService({
      db,
      storages,
      weights: async () => (await settings.get('repository_storages_weighted')) as Record<string, number>,
    });
    ctx.provide(repositoriesServiceRef, repos);

    const housekeeping = createHousekeeping(repos, ctx.jobs, ctx.log);
    ctx.jobs.define(HOUSEKEEPING_JOB, (data: { repositoryId?: number } | undefined) => housekeeping.run(data ?? {}));
    ctx.jobs.define(POST_RECEIVE_JOB, postReceive(ctx.events, projects, repos, externalUrl));
    repos.onRefsUpdated(async ({ repository, updates, pusher }) => {
      if (repository.kind === 'project') await ctx.jobs.enqueue(POST_RECEIVE_JOB, { repositoryId: repository.id, updates, pusher });
      await housekeeping.noteWrite(repository.id);
    });
    registerProjectLifecycle({ events: ctx.events, projects, users, repos, log: ctx.log });

    const projectRepos = createProjectRepositories(access, projects, users, repos);
    const deps: RouteDeps = { repos, projectRepos, projects, access };
    ctx.routes(
      ...commitRoutes(deps),
      ...branchRoutes(deps),
      ...tagRoutes(deps),
      ...treeRoutes(deps),
      ...fileRoutes(deps),
      ...compareRoutes(deps),
      ...gitHttpRoutes({ access, projects, repos, projectRepos }),
    );
  },
});
