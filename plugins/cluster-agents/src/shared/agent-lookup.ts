/** Finding the project and the agent of a request with GitLab's visibility rules. */
import { recordNotFound, type RequestContext } from '@forgekit/kernel';
import { AccessLevel, type AccessService, type ProjectAccess } from '@forgekit/plugin-core/contracts';
import type { AgentService } from '../agents/agent-service.js';

export function createAgentLookup(access: AccessService, agents: AgentService) {
  return {
    /** The request's project: `404 Project Not Found` if unseen, 403 below `minLevel`. */
    project: (ctx: RequestContext, minLevel = 0) => access.requireProject(ctx.user, ctx.params.id!, minLevel),

    /**
     * An agent of the project. Below Developer no agent is visible, so a hidden
     * agent and a missing one both give `404 Not found`.
     */
    async agent(found: ProjectAccess, agentId: number) {
      const agent = found.level >= AccessLevel.DEVELOPER ? await agents.find(found.project.id, agentId) : undefined;
      if (!agent) throw recordNotFound();
      return agent;
    },
  };
}

export type AgentLookup = ReturnType<typeof createAgentLookup>;
