/**
 * Who may use a project's wiki, GitLab's `read_wiki`, `create_wiki` and `admin_wiki`:
 * anyone who sees the project reads it (Guest on private projects), Developers write,
 * Maintainers delete. A hidden project is 404; the wiki feature switched off, or limited
 * to members for a non-member, is 403 whatever the role.
 */
import { forbidden, type Principal } from '@forgekit/kernel';
import { AccessLevel, projectFeatureOpen, type AccessService, type ProjectAccess, type ProjectService } from '@forgekit/plugin-core/contracts';

export type WikiAbility = 'read' | 'create' | 'admin';

const REQUIRED_LEVEL: Record<WikiAbility, number> = { read: 0, create: AccessLevel.DEVELOPER, admin: AccessLevel.MAINTAINER };

export function createWikiAccess(access: AccessService, projects: ProjectService) {
  return async (user: Principal | null, idOrPath: string, ability: WikiAbility): Promise<ProjectAccess> => {
    const projectAccess = await access.requireProject(user, idOrPath);
    const featureOpen = projectFeatureOpen(projects.settingsOf(projectAccess.project).wiki_access_level, projectAccess, user);
    if (!featureOpen || projectAccess.level < REQUIRED_LEVEL[ability]) throw forbidden();
    return projectAccess;
  };
}

export type WikiAccess = ReturnType<typeof createWikiAccess>;
