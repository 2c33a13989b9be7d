/**
 * Who may clone and push over HTTP, with git-friendly answers: an anonymous caller
 * is challenged for credentials (so git asks for them) rather than told a private
 * project does not exist.
 */
import { raw, type Credential, type Principal, type Reply } from '@forgekit/kernel';
import { AccessLevel, projectFeatureOpen, type AccessService, type ProjectAccess, type ProjectService } from '@forgekit/plugin-core/contracts';
import { READ_ONLY_MESSAGE } from '../git/repository-error.js';
import type { GitContainer } from './git-paths.js';
import { canDownloadCode, canPushCode } from '../shared/project-repository.js';

export const BASIC_REALM = 'Basic realm="forgekit"';

export class GitHttpRefusal extends Error {
  constructor(readonly reply: Reply) {
    super('git http refusal');
  }
}

const text = (status: number, message: string, headers: Record<string, string> = {}) =>
  new GitHttpRefusal(raw(status, `${message}\n`, 'text/plain; charset=utf-8', headers));

export const challenge = () => text(401, 'HTTP Basic: Access denied', { 'WWW-Authenticate': BASIC_REALM });
export const notFoundText = () => text(404, "The project you were looking for could not be found or you don't have permission to view it.");
export const forbiddenText = (message: string) => text(403, message);

export type RepositoryTarget = 'project' | 'wiki';
export type GitAction = 'download' | 'push';

/** The token scopes that allow each action at all, whatever the caller's role, and the refusal otherwise. */
const ACTION_SCOPES: Record<GitAction, { scopes: readonly string[]; refusal: string }> = {
  download: { scopes: ['api', 'read_api', 'read_repository', 'write_repository'], refusal: 'You are not allowed to download code.' },
  push: { scopes: ['api', 'write_repository'], refusal: 'You are not allowed to upload code.' },
};

const wikiFeatureOpen = (projects: ProjectService, access: ProjectAccess, user: Principal | null) =>
  projectFeatureOpen(projects.settingsOf(access.project).wiki_access_level, access, user);

export function createGitAccess(access: AccessService, projects: ProjectService) {
  return {
    /**
     * The first check, before the project is looked up: a token must carry a scope
     * that allows the action. Anonymous callers present no token and are judged by
     * the project alone.
     */
    checkScopes(credential: Credential | null, action: GitAction) {
      if (!credential) return;
      const { scopes, refusal } = ACTION_SCOPES[action];
      if (!scopes.some((scope) => credential.scopes.includes(scope))) throw forbiddenText(refusal);
    },

    /** The project behind a git URL (its path or id; null when the URL names none) that the caller may read, or the refusal to send. */
    async project(user: Principal | null, pathOrId: string | null): Promise<ProjectAccess> {
      let projectAccess: ProjectAccess;
      try {
        if (pathOrId === null) throw new Error('no project');
        projectAccess = await access.requireProject(user, pathOrId);
      } catch {
        throw user ? notFoundText() : challenge();
      }
      return projectAccess;
    },

    checkDownload(user: Principal | null, projectAccess: ProjectAccess, target: RepositoryTarget) {
      const allowed =
        target === 'wiki' ? projectAccess.canRead && wikiFeatureOpen(projects, projectAccess, user) : canDownloadCode(projects, projectAccess, user);
      if (allowed) return;
      if (!user) throw challenge();
      throw forbiddenText('You are not allowed to download code from this project.');
    },

    /** Fetch and push rules of a repository that belongs to no project (a snippet's), as its owner decided them. */
    checkContainer(user: Principal | null, container: GitContainer, push: boolean, readOnly: boolean) {
      if (!container.visible) throw user ? notFoundText() : challenge();
      if (push) {
        if (!user) throw challenge();
        if (readOnly) throw forbiddenText(READ_ONLY_MESSAGE);
        if (!container.canPush) throw forbiddenText('You are not allowed to update this snippet.');
      } else if (!container.canDownload) {
        if (!user) throw challenge();
        throw forbiddenText('You are not allowed to download code from this snippet.');
      }
    },

    /**
     * GitLab's order for a push, after `checkScopes`: the repository must take writes
     * (read-only during a storage move, never when archived), then the caller needs
     * push access.
     */
    checkPush(user: Principal | null, projectAccess: ProjectAccess, target: RepositoryTarget, readOnly: boolean) {
      if (!user) throw challenge();
      if (readOnly) throw forbiddenText(READ_ONLY_MESSAGE);
      if (projectAccess.project.archived) throw forbiddenText("You can't push code to an archived project.");
      const allowed =
        target === 'wiki'
          ? wikiFeatureOpen(projects, projectAccess, user) && projectAccess.level >= AccessLevel.DEVELOPER
          : canPushCode(projects, projectAccess, user);
      if (!allowed) throw forbiddenText('You are not allowed to push code to this project.');
    },
  };
}
