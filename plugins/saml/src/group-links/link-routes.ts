/** `/groups/:id/saml_group_links[/:saml_group_name]`. */
import { created, defineRoute, f, noContent, params, unauthorized, type Principal, type Route } from '@forgekit/kernel';
import { AccessLevel, type AccessService } from '@forgekit/plugin-core/contracts';
import type { ProviderService } from '../providers/provider-service.js';
import { presentLink } from './link-presenter.js';
import { linkSchema } from './link-schemas.js';
import { rootIdOf, type LinkService } from './link-service.js';

const MEMBER_LEVELS = [
  AccessLevel.MINIMAL,
  AccessLevel.GUEST,
  AccessLevel.PLANNER,
  AccessLevel.REPORTER,
  AccessLevel.DEVELOPER,
  AccessLevel.MAINTAINER,
  AccessLevel.OWNER,
] as number[];

export function linkRoutes(service: LinkService, providers: ProviderService, access: AccessService): Route[] {
  /** The group, for its Owners while its top-level group has SAML enabled; GitLab answers 401 otherwise. */
  async function managedGroup(user: Principal | null, id: string) {
    const { group, level } = await access.requireGroup(user, id);
    if (level < AccessLevel.OWNER && !user?.isAdmin) throw unauthorized();
    const provider = await providers.ofGroup(rootIdOf(group));
    if (!provider?.enabled) throw unauthorized();
    return group;
  }
  const lookup = params({ provider: f.optional(f.string()) });

  return [
    defineRoute({
      method: 'GET',
      path: '/groups/:id/saml_group_links',
      response: { schema: { type: 'array', items: linkSchema } },
      async handler(ctx) {
        return (await service.all(await managedGroup(ctx.user, ctx.params.id))).map(presentLink);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/groups/:id/saml_group_links',
      response: { schema: linkSchema },
      input: params({
        saml_group_name: f.string(),
        access_level: f.values(MEMBER_LEVELS, f.integer()),
        member_role_id: f.optional(f.integer()),
        provider: f.optional(f.string()),
      }),
      async handler(ctx, input) {
        const group = await managedGroup(ctx.user, ctx.params.id);
        // Custom roles are not modelled, so `member_role_id` is dropped as GitLab drops it without them.
        const link = await service.create(group, { name: input.saml_group_name, accessLevel: input.access_level, provider: input.provider });
        return created(presentLink(link));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/groups/:id/saml_group_links/:saml_group_name',
      // 422: links of several providers share the name and no `provider` picks one.
      response: { schema: linkSchema, errors: [422] },
      input: lookup,
      async handler(ctx, input) {
        const group = await managedGroup(ctx.user, ctx.params.id);
        return presentLink(await service.find(group, ctx.params.saml_group_name, input.provider));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/groups/:id/saml_group_links/:saml_group_name',
      response: { status: 204, errors: [422] },
      input: lookup,
      async handler(ctx, input) {
        const group = await managedGroup(ctx.user, ctx.params.id);
        await service.remove(await service.find(group, ctx.params.saml_group_name, input.provider));
        return noContent();
      },
    }),
  ];
}
