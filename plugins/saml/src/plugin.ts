import { kernelServices, definePlugin } from '@forgekit/kernel';
import { coreAccessRef, coreEvents, coreMembersRef, coreUsersRef } from '@forgekit/plugin-core/contracts';
import { SamlGroupLinkEntity } from './entities/saml-group-link.js';
import { SamlIdentityEntity } from './entities/saml-identity.js';
import { SamlProviderEntity } from './entities/saml-provider.js';
import { linkRoutes } from './group-links/link-routes.js';
import { createLinkService } from './group-links/link-service.js';
import { createLinkStore } from './group-links/link-store.js';
import { identityRoutes } from './identities/identity-routes.js';
import { createIdentityService } from './identities/identity-service.js';
import { createIdentityStore } from './identities/identity-store.js';
import { groupSamlIdentities } from './identities/user-identities.js';
import { init } from './migrations/202611271130-init.js';
import { samlProviderCommand } from './providers/provider-command.js';
import { providerRoutes } from './providers/provider-routes.js';
import { createProviderService } from './providers/provider-service.js';
import { createProviderStore } from './providers/provider-store.js';

/** Group SAML: a top-level group's provider, users' identities at it, and SAML group links applied at sign-in. */
export const samlPlugin = definePlugin({
  id: 'saml',
  compatibility: '^0.1.0',
  entities: [SamlProviderEntity, SamlIdentityEntity, SamlGroupLinkEntity],
  migrations: [init],
  requires: [coreAccessRef, coreUsersRef, coreMembersRef],
  commands: [samlProviderCommand],
  register(ctx) {
    const database = ctx.resolve(kernelServices.database);
    const access = ctx.resolve(coreAccessRef);
    const users = ctx.resolve(coreUsersRef);
    const providers = createProviderService(createProviderStore(database));
    const links = createLinkService(createLinkStore(database));
    const identities = createIdentityService(createIdentityStore(database), links, ctx.resolve(coreMembersRef), ctx.events);

    ctx.routes(...providerRoutes(providers, access), ...identityRoutes(identities, providers, access, users), ...linkRoutes(links, providers, access));
    users.extendFields(identities.identityFields);
    users.handleIdentities(groupSamlIdentities(identities, providers));

    ctx.events.on(coreEvents.groupDeleted, async ({ groupId }) => {
      const provider = await providers.ofGroup(groupId);
      if (provider) await providers.remove(provider);
      await links.removeAllOf(groupId);
    });
    ctx.events.on(coreEvents.userDeleted, async ({ userId }) => {
      await identities.removeAllOfUser(userId);
    });
  },
});
