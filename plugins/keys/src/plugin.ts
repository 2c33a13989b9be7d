import { kernelServices, definePlugin } from '@forgekit/kernel';
import { coreAccessRef, coreEvents, coreProjectsRef, coreSettingsRef, coreUsersRef } from '@forgekit/plugin-core/contracts';
import { deployKeyRoutes } from './deploy-keys/deploy-key-routes.js';
import { createDeployKeyService } from './deploy-keys/deploy-key-service.js';
import { createDeployKeyStore } from './deploy-keys/deploy-key-store.js';
import { DeployKeyProjectEntity } from './entities/deploy-key-project.js';
import { KeyEntity } from './entities/key.js';
import { lookupRoutes } from './lookup/lookup-routes.js';
import { createLookupService } from './lookup/lookup-service.js';
import { init } from './migrations/202611270900-init.js';
import { createKeyCreation } from './shared/key-creation.js';
import { defineKeySettings } from './shared/key-settings.js';
import { createKeyStore } from './shared/key-store.js';
import { userKeyRoutes } from './user-keys/user-key-routes.js';
import { createUserKeyService } from './user-keys/user-key-service.js';

/** SSH keys of users, deploy keys of projects, and key lookup by id and fingerprint. */
export const keysPlugin = definePlugin({
  id: 'keys',
  compatibility: '^0.1.0',
  entities: [KeyEntity, DeployKeyProjectEntity],
  migrations: [init],
  requires: [coreAccessRef, coreUsersRef, coreProjectsRef, coreSettingsRef],
  register(ctx) {
    const database = ctx.resolve(kernelServices.database);
    const access = ctx.resolve(coreAccessRef);
    const users = ctx.resolve(coreUsersRef);
    const projects = ctx.resolve(coreProjectsRef);
    const settings = ctx.resolve(coreSettingsRef);
    defineKeySettings(settings);

    const keys = createKeyStore(database);
    const creation = createKeyCreation(settings, { fingerprintTaken: async (sha256) => !!(await keys.findByFingerprint({ kind: 'sha256', value: sha256 })) });
    const userKeys = createUserKeyService(keys, creation, ctx.events);
    const deployKeys = createDeployKeyService({ keys, deployKeys: createDeployKeyStore(database), creation, access, events: ctx.events });

    ctx.routes(
      ...userKeyRoutes(userKeys, users),
      ...deployKeyRoutes(deployKeys, access, projects),
      ...lookupRoutes(createLookupService(keys, users), deployKeys),
    );

    ctx.events.on(coreEvents.userDeleted, ({ userId }) => userKeys.removeAllOf(userId));
    ctx.events.on(coreEvents.projectDeleted, ({ projectId }) => deployKeys.removeAllOfProject(projectId));
  },
});
