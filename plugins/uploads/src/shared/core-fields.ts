/**
 * Every read of a field of core's objects, in one place: core's contract is moving from rows
 * to domain objects, and this module is what changes when it does.
 */
import type { GroupAccess, ProjectAccess, UserRow } from '@forgekit/plugin-core/contracts';

export const projectIdOf = (access: ProjectAccess): number => access.project.id;
export const groupIdOf = (access: GroupAccess): number => access.group.id;

/** GitLab's `UserSafe`: how `uploaded_by` shows a user. */
export const userSafeOf = (user: UserRow) => ({ id: user.id, name: user.name, username: user.username });
