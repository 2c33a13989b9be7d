/** GitLab's Agent entity, with the project it is configured in. */
import { projectIdentity } from '@forgekit/plugin-core/contracts';
import type { Project } from '@forgekit/plugin-core/contracts';
import type { AgentWithReceptive } from './agent-service.js';

export function presentAgent(agent: AgentWithReceptive, project: Project) {
  return {
    id: agent.id,
    name: agent.name,
    config_project: projectIdentity(project),
    created_at: agent.createdAt.toISOString(),
    created_by_user_id: agent.createdByUserId,
    is_receptive: agent.urlConfigurationId !== null && agent.urlConfigurationId !== undefined,
  };
}
