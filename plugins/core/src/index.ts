import { corePlugin } from './plugin.js';

export { corePlugin, CoreConfigSchema, type CoreConfig } from './plugin.js';
export * from './refs.js';
export type { AccessService, ProjectAccess, ProjectPermissions, GroupAccess } from './access/access-service.js';
export type { UserService, NewUser } from './users/user-service.js';
export type { TokenService, NewToken } from './tokens/token-service.js';
export type { GroupService } from './groups/group-service.js';
export type { ProjectService } from './projects/project-service.js';
export type { SettingsService } from './settings/settings-service.js';
export type { ProjectWithNamespace, NamespaceRow, UserRow, MemberRow } from './shared/rows.js';
export { AccessLevel, Visibility, visibilityName } from './shared/levels.js';
export { ensureRootToken, ensureRootUser, ROOT_USERNAME } from './bootstrap.js';
export { ALL_SCOPES, TOKEN_PREFIX } from './tokens/token-service.js';
export { userBasic } from './users/user-presenter.js';
export { projectIdentity, type ProjectIdentitySource } from './projects/project-presenter.js';
export { branchProtectionDefaults } from './groups/group-presenter.js';
export default corePlugin;
