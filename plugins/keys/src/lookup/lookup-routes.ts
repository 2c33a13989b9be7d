/** `GET /keys/:id` and `GET /keys?fingerprint=`, for administrators. */
import { defineRoute, f, forbidden, params, type RequestContext, type Route } from '@forgekit/kernel';
import type { DeployKeyService } from '../deploy-keys/deploy-key-service.js';
import { publicUserBody } from '../shared/core-fields.js';
import { deployKeysProjectRecord, lookupUserBody, sshKeyBody, type LookupView } from '../shared/key-presenter.js';
import { keyLookupSchema } from '../shared/key-schemas.js';
import type { FoundKey, LookupService } from './lookup-service.js';

export function lookupRoutes(lookup: LookupService, deployKeys: DeployKeyService): Route[] {
  const withUser = (ctx: RequestContext, { key, user }: FoundKey, view: LookupView) => ({
    ...sshKeyBody(key, user?.name ?? null, ctx.externalUrl),
    user: lookupUserBody(user ? publicUserBody(user, ctx.externalUrl) : null, view, key.kind),
  });

  return [
    defineRoute({
      method: 'GET',
      path: '/keys/:id',
      auth: 'admin',
      response: { schema: keyLookupSchema },
      handler: async (ctx) => withUser(ctx, await lookup.byId(ctx.params.id), 'by-id'),
    }),
    defineRoute({
      method: 'GET',
      path: '/keys',
      input: params({ fingerprint: f.string() }),
      response: { schema: keyLookupSchema },
      async handler(ctx, input) {
        // As GitLab: the parameter is checked first, then who may look keys up.
        if (!ctx.user!.isAdmin) throw forbidden();
        const found = await lookup.byFingerprint(input.fingerprint);
        const body = withUser(ctx, found, 'fingerprint');
        if (found.key.kind !== 'deploy') return body;
        return { ...body, deploy_keys_projects: (await deployKeys.linksOf(found.key.id)).map(deployKeysProjectRecord) };
      },
    }),
  ];
}
