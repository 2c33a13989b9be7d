/**
 * What other plugins may use of the core plugin: its service refs, the types they
 * answer in, its events and its constants. Nothing here reaches the implementation.
 */
export * from './refs.js';
export { coreEvents } from './events.js';
export type { AccessService, ProjectAccess, ProjectPermissions, GroupAccess, VisibilityOptions } from './access/access-service.js';
export type { UserService, NewUser } from './users/user-service.js';
export type { TokenService, NewToken } from './tokens/token-service.js';
export type { GroupService } from './groups/group-service.js';
export type { ProjectService } from './projects/project-service.js';
export type { SettingsService } from './settings/settings-service.js';
export type { ProjectWithNamespace } from './projects/project-query.js';
export type { NamespaceRow } from './entities/namespace.js';
export type { UserRow } from './entities/user.js';
export type { MemberRow } from './entities/member.js';
export { AccessLevel, Visibility, visibilityName } from './shared/levels.js';
/** The guard that refuses writes to archived projects: a route that must still write there names it in `exemptFrom`. */
export { ARCHIVED_PROJECT_GUARD } from './access/archived-project-guard.js';
export { ALL_SCOPES, TOKEN_PREFIX } from './tokens/scopes.js';
/** GitLab's shared wire entities, for other plugins' representations of users, projects and protection. */
export { userBasic, userPublic } from './users/user-presenter.js';
export type { UserFieldExtension, Viewer } from './users/user-presenter.js';
/** The user that takes over what deleted users authored. */
export { ghostUser } from './users/ghost-user.js';
export { projectIdentity } from './projects/project-presenter.js';
export { branchProtectionDefaults } from './groups/group-presenter.js';
