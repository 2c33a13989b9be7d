/**
 * Every read of a field of core's objects (users, projects) in this plugin, in one place:
 * core's contract answers domain objects, and this module is where this plugin reads them.
 */
import { projectIdentity, userPublic, type Project, type User } from '@forgekit/plugin-core/contracts';

export type CoreUser = User;
export type CoreProject = Project;

export const userIdOf = (user: CoreUser) => user.id;
export const usernameOf = (user: CoreUser) => user.username;
export const projectIdOf = (project: CoreProject) => project.id;

/** GitLab's `UserPublic` entity of a user, as core presents it. */
export const publicUserBody = (user: CoreUser, externalUrl: string): Record<string, unknown> => userPublic(user, externalUrl);

/** GitLab's `ProjectIdentity` entity of a project. */
export const projectIdentityBody = (project: CoreProject) => projectIdentity(project);
