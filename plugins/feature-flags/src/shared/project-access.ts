import { forbidden, type Principal } from '@forgekit/kernel';
import { AccessLevel, type AccessService, type ProjectService, type Project } from '@forgekit/plugin-core/contracts';

/**
 * A project whose feature flags and user lists the caller may manage: Developer or
 * above. 404 when the project is hidden, 403 below Developer or with the feature
 * (`feature_flags_access_level`) switched off.
 */
export function featureFlagsProjectAccess(access: AccessService, projects: ProjectService) {
  return async (user: Principal | null, idOrPath: string): Promise<Project> => {
    const { project } = await access.requireProject(user, idOrPath, AccessLevel.DEVELOPER);
    if (projects.settingsOf(project).feature_flags_access_level === 'disabled') throw forbidden();
    return project;
  };
}

export type FeatureFlagsProjectAccess = ReturnType<typeof featureFlagsProjectAccess>;
