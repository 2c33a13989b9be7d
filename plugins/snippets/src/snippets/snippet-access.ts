/**
 * Who may see and change snippets: GitLab's personal and project snippet policies on
 * top of the project's own read rules and its snippets feature.
 */
import { forbidden, type Principal } from '@forgekit/kernel';
import {
  AccessLevel,
  projectFeatureOpen,
  Visibility,
  type AccessService,
  type Project,
  type ProjectAccess,
  type ProjectService,
} from '@forgekit/plugin-core/contracts';
import type { SnippetRow } from '../entities/snippet.js';
import type { SnippetReader } from './snippet-store.js';

/** A project whose snippets the caller reached, and whether the caller is one of its members. */
export interface SnippetProject {
  project: Project;
  level: number;
  member: boolean;
}

/** Any signed-in user who is not external sees internal content. */
const seesInternal = (user: Principal | null) => !!user && !user.external;

export function canReadPersonal(user: Principal | null, snippet: SnippetRow): boolean {
  if (user?.isAdmin || (user && snippet.authorId === user.id)) return true;
  if (snippet.visibilityLevel >= Visibility.public) return true;
  return snippet.visibilityLevel >= Visibility.internal && seesInternal(user);
}

export function canReadInProject(user: Principal | null, snippet: SnippetRow, { member }: SnippetProject): boolean {
  return member || canReadPersonal(user, snippet);
}

/** GitLab's `update_snippet` and `admin_snippet` on a project snippet: its author, or Maintainer and up. */
export const canChangeInProject = (user: Principal, snippet: SnippetRow, { level }: SnippetProject) =>
  user.isAdmin || snippet.authorId === user.id || level >= AccessLevel.MAINTAINER;

/** The lowest visibility a list shows to the caller, or null for every snippet (members). */
export function listFloor(user: Principal | null, member: boolean): number | null {
  if (member || user?.isAdmin) return null;
  return seesInternal(user) ? Visibility.internal : Visibility.public;
}

export function createSnippetAccess(access: AccessService, projects: ProjectService) {
  /** The project of a project snippet route: 404 unseen, 403 when its snippets feature is closed to the caller. */
  function fromAccess(user: Principal | null, found: ProjectAccess): SnippetProject {
    const member = !!user?.isAdmin || Math.max(found.projectLevel ?? 0, found.groupLevel ?? 0) >= AccessLevel.GUEST;
    if (!projectFeatureOpen(projects.settingsOf(found.project).snippets_access_level, found, user)) throw forbidden();
    return { project: found.project, level: found.level, member };
  }

  return {
    /**
     * What `/snippets/all` shows the caller among the projects that have snippets (`withSnippets`):
     * null for administrators (every snippet); else, as GitLab's `SnippetsFinder`, the snippets of
     * projects they are a member of (the feature not disabled) and the visible ones of projects
     * they may see whose feature is open to everybody.
     */
    async reader(user: Principal, withSnippets: readonly number[]): Promise<SnippetReader | null> {
      if (user.isAdmin) return null;
      const floor = seesInternal(user) ? Visibility.internal : Visibility.public;
      const none = { userId: user.id, floor, memberProjects: [], openProjects: [] };
      if (withSnippets.length === 0) return none;
      const [visible, memberOf] = await Promise.all([
        access.visibleProjectIds(user, { ids: withSnippets }),
        access.visibleProjectIds(user, { ids: withSnippets, membershipOnly: true }),
      ]);
      const members = new Set(memberOf);
      const found = await Promise.all(visible.map((id) => projects.findById(id)));
      const memberProjects: number[] = [];
      const openProjects: number[] = [];
      for (const project of found) {
        const feature = project && projects.settingsOf(project).snippets_access_level;
        if (!project || !feature || feature === 'disabled') continue;
        if (members.has(project.id)) memberProjects.push(project.id);
        else if (feature !== 'private') openProjects.push(project.id);
      }
      return { ...none, memberProjects, openProjects };
    },

    async project(user: Principal | null, idOrPath: string): Promise<SnippetProject> {
      return fromAccess(user, await access.requireProject(user, idOrPath));
    },

    /**
     * Whether the caller may read a snippet reached by id alone (`/snippets/:id`), with
     * its project for a project snippet.
     */
    async readable(user: Principal | null, snippet: SnippetRow): Promise<{ ok: boolean; project: Project | null }> {
      if (snippet.projectId == null) return { ok: canReadPersonal(user, snippet), project: null };
      const found = await access.lookUpForRequest(user, String(snippet.projectId));
      if (!found?.canRead) return { ok: false, project: null };
      try {
        const reached = fromAccess(user, found);
        return { ok: canReadInProject(user, snippet, reached), project: reached.project };
      } catch {
        return { ok: false, project: null };
      }
    },
  };
}

export type SnippetAccess = ReturnType<typeof createSnippetAccess>;
