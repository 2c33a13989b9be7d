import { forbidden, type Principal } from '@forgekit/kernel';
import { AccessLevel, type AccessService, type ProjectWithNamespace } from '@forgekit/plugin-core';

/** Whether the project switched its feature flags feature off (`feature_flags_access_level`). */
function featureDisabled(project: ProjectWithNamespace): boolean {
  const settings = project.settings ? (JSON.parse(project.settings) as Record<string, unknown>) : {};
  return settings.feature_flags_access_level === 'disabled';
}

/**
 * A project whose feature flags and user lists the caller may manage: Developer or
 * above. 404 when the project is hidden, 403 below Developer or with the feature off.
 */
export async function requireFeatureFlagsProject(access: AccessService, user: Principal | null, idOrPath: string): Promise<ProjectWithNamespace> {
  const { project } = await access.requireProject(user, idOrPath, AccessLevel.DEVELOPER);
  if (featureDisabled(project)) throw forbidden();
  return project;
}
