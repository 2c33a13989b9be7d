/** `/projects/:id/cluster_agents/:agent_id/tokens`: list, show, create and revoke agent tokens. */
import { created, defineRoute, f, noContent, page, params, recordNotFound, totalFor, type Route } from '@forgekit/kernel';
import { AccessLevel } from '@forgekit/plugin-core/contracts';
import type { AgentLookup } from '../shared/agent-lookup.js';
import { presentToken, presentTokenBasic, presentTokenWithSecret } from './token-presenter.js';
import { tokenBasicSchema, tokenSchema, tokenWithSecretSchema } from './token-schemas.js';
import type { TokenService } from './token-service.js';

const BASE = '/projects/:id/cluster_agents/:agent_id/tokens';

export function tokenRoutes(tokens: TokenService, lookup: AgentLookup): Route[] {
  const tokenParams = params({ agent_id: f.id(), token_id: f.id() });

  return [
    defineRoute({
      method: 'GET',
      path: BASE,
      paginated: true,
      response: { schema: tokenBasicSchema },
      input: params({ agent_id: f.id() }),
      async handler(ctx, input) {
        const agent = await lookup.agent(await lookup.project(ctx), input.agent_id);
        const rows = await tokens.listActive(agent.id, ctx.page);
        const total = await totalFor(ctx.page, rows.length, () => tokens.countActive(agent.id));
        return page(rows.map(presentTokenBasic), total);
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${BASE}/:token_id`,
      response: { schema: tokenSchema },
      input: tokenParams,
      async handler(ctx, input) {
        const agent = await lookup.agent(await lookup.project(ctx), input.agent_id);
        const token = await tokens.findActive(agent.id, input.token_id);
        if (!token) throw recordNotFound();
        return presentToken(token);
      },
    }),
    defineRoute({
      method: 'POST',
      path: BASE,
      response: { schema: tokenWithSecretSchema },
      input: params({ agent_id: f.id(), name: f.string(), description: f.optional(f.string()) }),
      async handler(ctx, input) {
        const agent = await lookup.agent(await lookup.project(ctx, AccessLevel.MAINTAINER), input.agent_id);
        const { token, secret } = await tokens.create(agent, { name: input.name, description: input.description }, ctx.user!.id);
        return created(presentTokenWithSecret(token, secret));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `${BASE}/:token_id`,
      response: { status: 204 },
      input: tokenParams,
      async handler(ctx, input) {
        const agent = await lookup.agent(await lookup.project(ctx, AccessLevel.MAINTAINER), input.agent_id);
        const token = await tokens.find(agent.id, input.token_id);
        if (!token) throw recordNotFound();
        await tokens.revoke(token.id);
        return noContent();
      },
    }),
  ];
}
