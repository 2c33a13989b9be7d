/**
 * Every read of a field of core's users in this plugin, in one place: core's contract is
 * moving to domain objects, and this is the module that follows it.
 */
import { userBasic, userBasicSchema, type User } from '@forgekit/plugin-core/contracts';

export type CoreUser = User;

export const userIdOf = (user: CoreUser) => user.id;
/** GitLab's `active` scope: follower lists and counts leave out blocked and deactivated users. */
export const isActive = (user: CoreUser) => user.state === 'active';
export const isBlocked = (user: CoreUser) => user.state === 'blocked';
export const hasPrivateProfile = (user: CoreUser) => user.privateProfile;
/** GitLab's `UserBasic` entity, as core presents it. */
export const userBasicBody = (user: CoreUser, externalUrl: string) => userBasic(user, externalUrl);
/** The JSON Schema of `userBasicBody`'s answer. */
export const userBasicBodySchema = userBasicSchema;
