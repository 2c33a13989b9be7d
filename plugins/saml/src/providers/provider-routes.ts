/** `/groups/:id/saml_provider`: a top-level group's SAML configuration, for its Owners (an extension; GitLab sets it in its UI). */
import { defineRoute, noContent, type Route } from '@forgekit/kernel';
import { AccessLevel, type AccessService } from '@forgekit/plugin-core/contracts';
import { providerParams, settingsOf } from './provider-input.js';
import { presentProvider } from './provider-presenter.js';
import { providerSchema } from './provider-schemas.js';
import type { ProviderService } from './provider-service.js';

export function providerRoutes(service: ProviderService, access: AccessService): Route[] {
  const ownedGroup = async (user: Parameters<AccessService['requireGroup']>[0], id: string) => (await access.requireGroup(user, id, AccessLevel.OWNER)).group;
  return [
    defineRoute({
      method: 'GET',
      path: '/groups/:id/saml_provider',
      response: { schema: providerSchema },
      async handler(ctx) {
        return presentProvider(await service.require((await ownedGroup(ctx.user, ctx.params.id)).id));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/groups/:id/saml_provider',
      response: { schema: providerSchema },
      input: providerParams,
      async handler(ctx, input) {
        const group = await ownedGroup(ctx.user, ctx.params.id);
        return presentProvider(await service.save(group, settingsOf(input)));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/groups/:id/saml_provider',
      response: { status: 204 },
      async handler(ctx) {
        await service.remove(await service.require((await ownedGroup(ctx.user, ctx.params.id)).id));
        return noContent();
      },
    }),
  ];
}
