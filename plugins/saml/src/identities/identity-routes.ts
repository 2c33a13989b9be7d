/**
 * `/groups/:id/saml/identities` and `/groups/:id/saml/:uid` for the group's Owners, and the
 * sign-in extension `POST /groups/:id/saml/identities` for administrators (what a SAML
 * assertion carries: the user's extern uid and SAML groups).
 */
import { badRequest, created, defineRoute, f, noContent, notFound, params, type Principal, type Route } from '@forgekit/kernel';
import { AccessLevel, type AccessService, type UserService } from '@forgekit/plugin-core/contracts';
import type { ProviderService } from '../providers/provider-service.js';
import { presentIdentity } from './identity-presenter.js';
import { identitySchema } from './identity-schemas.js';
import type { IdentityService } from './identity-service.js';

export function identityRoutes(service: IdentityService, providers: ProviderService, access: AccessService, users: UserService): Route[] {
  /** The group's provider, for its Owners; a group without one answers GitLab's bare 400. */
  async function providerFor(user: Principal | null, id: string) {
    const { group } = await access.requireGroup(user, id, AccessLevel.OWNER);
    const provider = await providers.ofGroup(group.id);
    if (!provider) throw badRequest();
    return provider;
  }

  return [
    defineRoute({
      method: 'GET',
      path: '/groups/:id/saml/identities',
      // 400: the group has no SAML provider.
      response: { schema: { type: 'array', items: identitySchema }, errors: [400] },
      async handler(ctx) {
        return (await service.all(await providerFor(ctx.user, ctx.params.id))).map(presentIdentity);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/groups/:id/saml/identities',
      auth: 'admin',
      response: { schema: identitySchema },
      input: params({
        user_id: f.id(),
        extern_uid: f.nonBlankString(),
        saml_groups: f.optional(f.commaList()),
        provider: f.optional(f.string()),
      }),
      async handler(ctx, input) {
        const provider = await providerFor(ctx.user, ctx.params.id);
        const user = await users.findById(input.user_id);
        if (!user) throw notFound('User');
        const identity = await service.signIn(provider, {
          user,
          externUid: input.extern_uid,
          samlGroups: input.saml_groups ?? [],
          provider: input.provider?.trim() ? input.provider : null,
        });
        return created(presentIdentity(identity));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/groups/:id/saml/:uid',
      response: { schema: identitySchema, errors: [400] },
      async handler(ctx) {
        return presentIdentity(await service.find(await providerFor(ctx.user, ctx.params.id), ctx.params.uid));
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/groups/:id/saml/:uid',
      response: { schema: identitySchema },
      input: params({ extern_uid: f.string() }),
      async handler(ctx, input) {
        const provider = await providerFor(ctx.user, ctx.params.id);
        return presentIdentity(await service.changeExternUid(provider, ctx.params.uid, input.extern_uid));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/groups/:id/saml/:uid',
      response: { status: 204, errors: [400] },
      async handler(ctx) {
        await service.remove(await providerFor(ctx.user, ctx.params.id), ctx.params.uid);
        return noContent();
      },
    }),
  ];
}
