/** `/projects/:id/cluster_agents`: list, show, register and delete agents. */
import { checkUnmodifiedSince, created, defineRoute, f, noContent, notFound, page, params, totalFor, type Route } from '@forgekit/kernel';
import { AccessLevel } from '@forgekit/plugin-core/contracts';
import type { AgentLookup } from '../shared/agent-lookup.js';
import { presentAgent } from './agent-presenter.js';
import { agentSchema } from './agent-schemas.js';
import type { AgentService } from './agent-service.js';

export function agentRoutes(agents: AgentService, lookup: AgentLookup): Route[] {
  const agentParam = params({ agent_id: f.id() });

  return [
    defineRoute({
      method: 'GET',
      path: '/projects/:id/cluster_agents',
      paginated: true,
      response: { schema: agentSchema },
      async handler(ctx) {
        const { project, level } = await lookup.project(ctx);
        if (level < AccessLevel.DEVELOPER) throw notFound('ClusterAgents');
        const rows = await agents.list(project.id, ctx.page);
        const total = await totalFor(ctx.page, rows.length, () => agents.count(project.id));
        return page(
          rows.map((agent) => presentAgent(agent, project)),
          total,
        );
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/projects/:id/cluster_agents/:agent_id',
      response: { schema: agentSchema },
      input: agentParam,
      async handler(ctx, input) {
        const found = await lookup.project(ctx);
        return presentAgent(await lookup.agent(found, input.agent_id), found.project);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/projects/:id/cluster_agents',
      response: { schema: agentSchema },
      input: params({ name: f.string() }),
      async handler(ctx, input) {
        const { project } = await lookup.project(ctx, AccessLevel.MAINTAINER);
        return created(presentAgent(await agents.create(project.id, input.name, ctx.user!.id), project));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/projects/:id/cluster_agents/:agent_id',
      // 412: changed since `If-Unmodified-Since`.
      response: { status: 204, errors: [412] },
      input: agentParam,
      async handler(ctx, input) {
        const found = await lookup.project(ctx, AccessLevel.MAINTAINER);
        const agent = await lookup.agent(found, input.agent_id);
        checkUnmodifiedSince(ctx.header('If-Unmodified-Since'), agent.updatedAt);
        await agents.remove(agent.id);
        return noContent();
      },
    }),
  ];
}
