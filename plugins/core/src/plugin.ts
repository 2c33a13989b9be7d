import { kernelServices, definePlugin, KERNEL_VERSION } from '@forgekit/kernel';
import * as v from 'valibot';
import { createAccessService, createProjectLookup, createVisibility } from './access/access-service.js';
import { archivedProjectGuard } from './access/archived-project-guard.js';
import { ensureRootToken } from './bootstrap.js';
import { coreEntities } from './entities/index.js';
import { groupRoutes } from './groups/group-routes.js';
import { createGroupService } from './groups/group-service.js';
import { instanceRoutes } from './instance/instance-routes.js';
import { memberRoutes } from './members/member-routes.js';
import { createMemberService } from './members/member-service.js';
import { init } from './migrations/202611220510-init.js';
import { widenProfileFields } from './migrations/202611241000-widen-profile-fields.js';
import { settingsKeyNotNull } from './migrations/202611250000-settings-key-not-null.js';
import { lockVersions } from './migrations/202611271400-lock-versions.js';
import { namespaceRoutes } from './namespaces/namespace-routes.js';
import { projectRoutes } from './projects/project-routes.js';
import { createProjectFragments } from './projects/project-fragments.js';
import { createProjectService } from './projects/project-service.js';
import {
  coreAccessRef,
  coreGroupsRef,
  coreMembersRef,
  coreProjectsRef,
  coreSettingsRef,
  coreTokensRef,
  coreUserDeletionRef,
  coreUsersRef,
} from './contracts.js';
import { settingsRoutes } from './settings/settings-routes.js';
import { createSettingsService, defineCoreSettings } from './settings/settings-service.js';
import { createIdentityProvider } from './tokens/identity-provider.js';
import { tokenRoutes } from './tokens/token-routes.js';
import { createTokenService } from './tokens/token-service.js';
import { userRoutes } from './users/user-routes.js';
import { createUserDeletion } from './users/user-deletion.js';
import { createUserService } from './users/user-service.js';

export const CoreConfigSchema = v.object({
  /** When set, `root` (an administrator) exists with a token equal to this secret. */
  rootToken: v.optional(v.pipe(v.string(), v.minLength(16, 'rootToken must be at least 16 characters'))),
  /** The GitLab version reported by `/version` and `/metadata`; clients gate features on it. */
  reportedVersion: v.optional(v.string(), '17.11.0'),
});

export type CoreConfig = v.InferOutput<typeof CoreConfigSchema>;

/** Users, tokens, groups, projects, members, namespaces and instance settings. */
export const corePlugin = definePlugin<CoreConfig>({
  id: 'core',
  compatibility: '^0.1.0',
  config: CoreConfigSchema,
  env: { FORGEKIT_ROOT_TOKEN: 'rootToken' },
  entities: coreEntities,
  migrations: [init, widenProfileFields, settingsKeyNotNull, lockVersions],
  provides: [
    kernelServices.identity,
    coreAccessRef,
    coreUsersRef,
    coreUserDeletionRef,
    coreTokensRef,
    coreGroupsRef,
    coreProjectsRef,
    coreSettingsRef,
    coreMembersRef,
  ],
  register(ctx) {
    const database = ctx.resolve(kernelServices.database);
    const { externalUrl } = ctx.resolve(kernelServices.instance);
    const lookup = createProjectLookup(database);
    const visibility = createVisibility();
    const users = createUserService(database);
    const tokens = createTokenService(database);
    const groups = createGroupService(database);
    const projects = createProjectService(database, lookup);
    const access = createAccessService(database, lookup, visibility, users);
    const settings = createSettingsService(database);
    defineCoreSettings(settings);
    // Uploaded files are limited by the instance's `max_attachment_size`, in MiB as GitLab keeps it.
    ctx.resolve(kernelServices.uploads).limitFileSize(async () => Number(await settings.get('max_attachment_size')) * 1024 * 1024);

    ctx.provide(kernelServices.identity, createIdentityProvider(database, tokens, externalUrl));
    ctx.provide(coreAccessRef, access);
    ctx.provide(coreUsersRef, users);
    const userDeletion = createUserDeletion(users, groups, ctx.events);
    ctx.provide(coreUserDeletionRef, userDeletion);
    ctx.provide(coreTokensRef, tokens);
    ctx.provide(coreGroupsRef, groups);
    ctx.provide(coreProjectsRef, projects);
    ctx.provide(coreSettingsRef, settings);
    const members = createMemberService(database, ctx.events);
    ctx.provide(coreMembersRef, members);

    const projectFragments = createProjectFragments(ctx.resolve(kernelServices.presented), projects.fieldExtensions);
    ctx.guardRoutes(archivedProjectGuard(access));
    ctx.routes(
      ...userRoutes(database, users, userDeletion, ctx.events, ctx.resolve(kernelServices.presented)),
      ...tokenRoutes(database, tokens, users),
      ...groupRoutes(database, groups, projects, access, visibility, settings, ctx.events, projectFragments),
      ...projectRoutes(database, projects, access, visibility, settings, ctx.events, projectFragments),
      ...memberRoutes(database, access, ctx.events),
      ...namespaceRoutes(database, visibility),
      ...settingsRoutes(settings),
      ...instanceRoutes(database, ctx.config.reportedVersion, KERNEL_VERSION),
    );

    const { rootToken } = ctx.config;
    if (rootToken) {
      ctx.lifecycle.onStart(async () => {
        if (await ensureRootToken(users, tokens, rootToken)) ctx.log.info('root token from FORGEKIT_ROOT_TOKEN is ready');
      });
    }
  },
});
