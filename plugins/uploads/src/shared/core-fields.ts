/** Every read of a field of core's objects, in one place. */
import type { GroupAccess, ProjectAccess, User } from '@forgekit/plugin-core/contracts';

export const projectIdOf = (access: ProjectAccess): number => access.project.id;
export const groupIdOf = (access: GroupAccess): number => access.group.id;

/** GitLab's `UserSafe`: how `uploaded_by` shows a user. */
export const userSafeOf = (user: User) => ({ id: user.id, name: user.name, username: user.username });
