import { kernelServices, definePlugin } from '@forgekit/kernel';
import { coreAccessRef, coreEvents, coreProjectsRef, coreUserDeletionRef, coreUsersRef } from '@forgekit/plugin-core/contracts';
import { pagesDomainEvents, pagesDomainsRef } from '@forgekit/plugin-pages-domains/contracts';
import { samlEvents } from '@forgekit/plugin-saml/contracts';
import { createClaimStore } from './enterprise/claim-store.js';
import { enterpriseRoutes } from './enterprise/enterprise-routes.js';
import { createEnterpriseService } from './enterprise/enterprise-service.js';
import { EnterpriseClaimEntity } from './entities/enterprise-claim.js';
import { TwoFactorEntity } from './entities/two-factor.js';
import { init } from './migrations/202611271130-init.js';
import { twoFactorRoutes } from './two-factor/two-factor-routes.js';
import { createTwoFactorService } from './two-factor/two-factor-service.js';
import { createTwoFactorStore } from './two-factor/two-factor-store.js';

/** The top-level group id of a `/1/5/9/` traversal path. */
const rootOf = (traversalPath: string) => Number(traversalPath.split('/').filter(Boolean)[0]);

/** Enterprise users of top-level groups, claimed through verified Pages domains and group SAML, and TOTP two-factor authentication. */
export const enterpriseUsersPlugin = definePlugin({
  id: 'enterprise-users',
  compatibility: '^0.1.0',
  entities: [TwoFactorEntity, EnterpriseClaimEntity],
  migrations: [init],
  requires: [coreAccessRef, coreUsersRef, coreUserDeletionRef, coreProjectsRef, pagesDomainsRef],
  register(ctx) {
    const database = ctx.resolve(kernelServices.database);
    const users = ctx.resolve(coreUsersRef);
    const projects = ctx.resolve(coreProjectsRef);
    const { externalUrl } = ctx.resolve(kernelServices.instance);
    const twoFactor = createTwoFactorService(createTwoFactorStore(database), ctx.resolve(kernelServices.secrets), new URL(externalUrl).host);
    const service = createEnterpriseService({
      claims: createClaimStore(database),
      access: ctx.resolve(coreAccessRef),
      users,
      deletion: ctx.resolve(coreUserDeletionRef),
      pages: ctx.resolve(pagesDomainsRef),
      twoFactor,
    });

    ctx.routes(...enterpriseRoutes(service, users), ...twoFactorRoutes(twoFactor));
    users.extendFields(async (entries) => {
      const enabled = await twoFactor.enabledAmong(entries.map((entry) => entry.user.id));
      for (const { user, body } of entries) if ('two_factor_enabled' in body) body.two_factor_enabled = enabled.has(user.id);
    });

    ctx.events.on(pagesDomainEvents.verified, async ({ projectId, domain }) => {
      const project = await projects.findById(projectId);
      if (project?.namespace.kind === 'group') await service.claimForDomain(rootOf(project.namespace.traversalPath), domain);
    });
    // Heard only when the host composes the SAML plugin.
    ctx.events.on(samlEvents.identityLinked, ({ groupId, userId }) => service.claimForSaml(groupId, userId));
    ctx.events.on(coreEvents.userDeleted, async ({ userId }) => {
      await service.removeUser(userId);
      await twoFactor.removeAllOf(userId);
    });
    ctx.events.on(coreEvents.groupDeleted, async ({ groupId }) => {
      await service.removeGroup(groupId);
    });
  },
});
