/** Services the core plugin provides to other plugins. */
import { createServiceRef } from '@forgekit/kernel';
import type { AccessService } from './access/access-service.js';
import type { GroupService } from './groups/group-service.js';
import type { ProjectService } from './projects/project-service.js';
import type { SettingsService } from './settings/settings-service.js';
import type { TokenService } from './tokens/token-service.js';
import type { UserService } from './users/user-service.js';

export const coreAccessRef = createServiceRef<AccessService>('core.access');
export const coreUsersRef = createServiceRef<UserService>('core.users');
export const coreTokensRef = createServiceRef<TokenService>('core.tokens');
export const coreGroupsRef = createServiceRef<GroupService>('core.groups');
export const coreProjectsRef = createServiceRef<ProjectService>('core.projects');
export const coreSettingsRef = createServiceRef<SettingsService>('core.settings');
