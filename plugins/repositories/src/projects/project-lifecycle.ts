/**
 * Project repositories follow their projects: created (on a storage drawn by weight,
 * optionally with a README) when the project is, kept in step with its default
 * branch, removed with it, and shown through `empty_repo`.
 */
import type { EventBus, Logger } from '@forgekit/kernel';
import { coreEvents, type ProjectService, type UserService } from '@forgekit/plugin-core/contracts';
import { isValidRefName } from '../git/ref-names.js';
import { diskPathFor } from '../storage/storages.js';
import type { RepositoryService } from '../storage/repository-service.js';

/** The branch name a project without one gets (GitLab's instance default). */
export const INSTANCE_DEFAULT_BRANCH = 'main';

export function registerProjectLifecycle(options: { events: EventBus; projects: ProjectService; users: UserService; repos: RepositoryService; log: Logger }) {
  const { events, projects, users, repos, log } = options;

  events.on(coreEvents.projectCreated, async ({ projectId, initializeWithReadme, userId }) => {
    let project = await projects.findById(projectId);
    if (!project) return;
    // An administrator's explicit storage stays; otherwise the weights decide.
    const chosen =
      project.repositoryStorage !== 'default' && repos.storages.has(project.repositoryStorage) ? project.repositoryStorage : await repos.pickStorage();
    const defaultBranch = project.defaultBranch && isValidRefName(project.defaultBranch) ? project.defaultBranch : INSTANCE_DEFAULT_BRANCH;
    if (chosen !== project.repositoryStorage || project.defaultBranch !== defaultBranch) {
      project = await projects.update(project, { repositoryStorage: chosen, defaultBranch });
    }
    const repository = await repos.ensure({ kind: 'project', containerId: projectId }, { storage: chosen, defaultBranch });
    if (!initializeWithReadme) return;
    const user = userId ? await users.findById(userId) : undefined;
    const identity = { name: user?.name ?? 'Administrator', email: user?.email ?? 'admin@localhost' };
    const content = `${`# ${project.name}\n\n${project.description ?? ''}`.trimEnd()}\n`;
    await repos.commitFiles(
      repository,
      {
        branch: defaultBranch,
        message: 'Initial commit',
        author: identity,
        committer: identity,
        actions: [{ action: 'create', filePath: 'README.md', content: Buffer.from(content) }],
      },
      user ? { id: user.id, username: user.username, ...identity } : null,
    );
  });

  events.on(coreEvents.projectUpdated, async ({ projectId }) => {
    const project = await projects.findById(projectId);
    const repository = project && (await repos.find({ kind: 'project', containerId: projectId }));
    if (!project?.defaultBranch || !repository) return;
    // A new default branch moves HEAD once the branch exists.
    if ((await repos.headBranch(repository)) !== project.defaultBranch && (await repos.branchHead(repository, project.defaultBranch))) {
      await repos.setHeadBranch(repository, project.defaultBranch);
    }
  });

  events.on(coreEvents.projectDeleted, async ({ projectId }) => {
    for (const kind of ['project', 'wiki'] as const) {
      await repos.remove({ kind, containerId: projectId }).catch((error) => log.error({ err: error, projectId, kind }, 'could not remove repository'));
    }
  });

  events.on(coreEvents.groupDeleted, async ({ groupId }) => {
    await repos
      .remove({ kind: 'group_wiki', containerId: groupId })
      .catch((error) => log.error({ err: error, groupId, kind: 'group_wiki' }, 'could not remove repository'));
  });

  projects.extendFields((project, body, view) => {
    if (body.default_branch === null || body.default_branch === undefined) body.default_branch = INSTANCE_DEFAULT_BRANCH;
    if (view === 'full') body.empty_repo = repos.isEmptyOnDisk(diskPathFor({ kind: 'project', containerId: project.id }), project.repositoryStorage);
  });
}
