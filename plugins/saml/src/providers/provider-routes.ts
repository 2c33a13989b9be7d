/** `/groups/:id/saml_provider`: a top-level group's SAML configuration, for its Owners (an extension; GitLab sets it in its UI). */
import { defineRoute, f, noContent, params, type Route } from '@forgekit/kernel';
import { AccessLevel, type AccessService } from '@forgekit/plugin-core/contracts';
import { presentProvider } from './provider-presenter.js';
import type { ProviderService } from './provider-service.js';

/** The levels a SAML sign-in may give by default: any member level below Owner. */
const DEFAULT_ROLES = [AccessLevel.GUEST, AccessLevel.PLANNER, AccessLevel.REPORTER, AccessLevel.DEVELOPER, AccessLevel.MAINTAINER] as number[];

export function providerRoutes(service: ProviderService, access: AccessService): Route[] {
  const ownedGroup = async (user: Parameters<AccessService['requireGroup']>[0], id: string) => (await access.requireGroup(user, id, AccessLevel.OWNER)).group;
  return [
    defineRoute({
      method: 'GET',
      path: '/groups/:id/saml_provider',
      async handler(ctx) {
        return presentProvider(await service.require((await ownedGroup(ctx.user, ctx.params.id)).id));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/groups/:id/saml_provider',
      input: params({
        enabled: f.optional(f.boolean()),
        sso_url: f.optional(f.string()),
        certificate_fingerprint: f.optional(f.string()),
        default_membership_role: f.optional(f.values(DEFAULT_ROLES, f.integer())),
      }),
      async handler(ctx, input) {
        const group = await ownedGroup(ctx.user, ctx.params.id);
        const settings = {
          ...(input.enabled != null ? { enabled: input.enabled } : {}),
          ...(input.sso_url != null ? { ssoUrl: input.sso_url } : {}),
          ...(input.certificate_fingerprint != null ? { certificateFingerprint: input.certificate_fingerprint } : {}),
          ...(input.default_membership_role != null ? { defaultMembershipRole: input.default_membership_role } : {}),
        };
        return presentProvider(await service.save(group, settings));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/groups/:id/saml_provider',
      async handler(ctx) {
        await service.remove(await service.require((await ownedGroup(ctx.user, ctx.params.id)).id));
        return noContent();
      },
    }),
  ];
}
