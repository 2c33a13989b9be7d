/**
 * A project's repository as a request sees it: GitLab's `download_code` and
 * `push_code` rules on top of project visibility, and the caller as a git identity.
 */
import { apiError, forbidden, type Principal, type RequestContext } from '@forgekit/kernel';
import {
  AccessLevel,
  projectFeatureOpen,
  Visibility,
  type AccessService,
  type ProjectAccess,
  type ProjectService,
  type UserService,
} from '@forgekit/plugin-core/contracts';
import type { Pusher, RepositoryHandle, RepositoryService } from '../storage/repository-service.js';

/** Whether the repository feature is open to this caller (members only when `private`). */
export function repositoryFeatureOpen(projects: ProjectService, access: ProjectAccess, user: Principal | null): boolean {
  return projectFeatureOpen(projects.settingsOf(access.project).repository_access_level, access, user);
}

/** GitLab's `download_code`: Reporter and up, or anyone who sees a public or internal project. */
export function canDownloadCode(projects: ProjectService, access: ProjectAccess, user: Principal | null): boolean {
  if (!repositoryFeatureOpen(projects, access, user)) return false;
  if (user?.isAdmin || access.level >= AccessLevel.REPORTER) return true;
  return access.canRead && access.project.visibilityLevel >= Visibility.internal;
}

/** GitLab's `push_code`: Developer and up, and not on an archived project. */
export function canPushCode(projects: ProjectService, access: ProjectAccess, user: Principal | null): boolean {
  return !!user && repositoryFeatureOpen(projects, access, user) && access.level >= AccessLevel.DEVELOPER && !access.project.archived;
}

export interface ProjectRepository {
  access: ProjectAccess;
  /** null when the project has no repository yet (reads see it as empty). */
  repository: RepositoryHandle | null;
}

export function createProjectRepositories(access: AccessService, projects: ProjectService, users: UserService, repos: RepositoryService) {
  async function visible(ctx: RequestContext): Promise<ProjectAccess> {
    const projectAccess = await access.requireProject(ctx.user, ctx.params.id!);
    if (!repositoryFeatureOpen(projects, projectAccess, ctx.user)) throw apiError(404, '404 Repository Not Found');
    return projectAccess;
  }

  return {
    /** The project's repository for reading code: 404 unseen, 403 without `download_code`. */
    async forRead(ctx: RequestContext): Promise<ProjectRepository> {
      const projectAccess = await visible(ctx);
      if (!canDownloadCode(projects, projectAccess, ctx.user)) throw forbidden();
      return { access: projectAccess, repository: await repos.find({ kind: 'project', containerId: projectAccess.project.id }) };
    },

    /** The project's repository for a write (created on first use): 403 without `push_code`. */
    async forWrite(ctx: RequestContext, reason?: string): Promise<ProjectRepository & { repository: RepositoryHandle }> {
      const projectAccess = await visible(ctx);
      if (!canPushCode(projects, projectAccess, ctx.user)) {
        if (!ctx.user) throw apiError(401, '401 Unauthorized');
        throw forbidden(reason);
      }
      const { project } = projectAccess;
      const repository = await repos.ensure(
        { kind: 'project', containerId: project.id },
        { storage: project.repositoryStorage, defaultBranch: project.defaultBranch ?? 'main' },
      );
      return { access: projectAccess, repository };
    },

    /** The caller as committer and pusher. */
    async pusher(user: Principal): Promise<Pusher> {
      const row = await users.findById(user.id);
      return { id: user.id, username: user.username, name: row?.name ?? user.name, email: row?.email ?? `${user.username}@localhost` };
    },
  };
}

export type ProjectRepositories = ReturnType<typeof createProjectRepositories>;
