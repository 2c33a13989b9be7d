/** GitLab's Agent entity, with the project it is configured in. */
import { toIso } from '@forgekit/kernel/orm';
import { projectIdentity, type ProjectWithNamespace } from '@forgekit/plugin-core';
import type { AgentWithReceptive } from '../shared/rows.js';

export function presentAgent(agent: AgentWithReceptive, project: ProjectWithNamespace) {
  return {
    id: agent.id,
    name: agent.name,
    config_project: projectIdentity(project),
    created_at: toIso(agent.created_at),
    created_by_user_id: agent.created_by_user_id,
    is_receptive: agent.url_configuration_id !== null && agent.url_configuration_id !== undefined,
  };
}
