/** Agents registered with a project: names unique per project, ordered by name. */
import type { PageRequest } from '@forgekit/kernel';
import type { Knex } from '@forgekit/kernel/orm';
import { blankMessage, isBlank, isUniqueViolation, lengthMessage, serviceError } from '../shared/model-errors.js';
import type { AgentWithReceptive } from '../shared/rows.js';

const NAME_FORMAT = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const NAME_FORMAT_MESSAGE = "Name can contain only lowercase letters, digits, and '-', but cannot start or end with '-'";
const NAME_TAKEN = 'Name has already been taken';
const NAME_MAX = 63;

export function createAgentService(db: Knex) {
  const agents = () =>
    db('cluster_agents as a').leftJoin('cluster_agent_url_configurations as u', 'u.agent_id', 'a.id').select('a.*', 'u.id as url_configuration_id');

  const find = (projectId: number, agentId: number): Promise<AgentWithReceptive | undefined> =>
    agents().where('a.project_id', projectId).where('a.id', agentId).first();

  async function nameErrors(projectId: number, name: string) {
    const messages: string[] = [];
    if (isBlank(name)) messages.push(blankMessage('Name'));
    const tooLong = lengthMessage('Name', name, NAME_MAX);
    if (tooLong) messages.push(tooLong);
    if (await db('cluster_agents').where({ project_id: projectId, name }).first('id')) messages.push(NAME_TAKEN);
    if (!NAME_FORMAT.test(name)) messages.push(NAME_FORMAT_MESSAGE);
    return messages;
  }

  return {
    find,

    list: (projectId: number, page: PageRequest): Promise<AgentWithReceptive[]> =>
      agents().where('a.project_id', projectId).orderBy('a.name', 'asc').orderBy('a.id', 'asc').limit(page.perPage).offset(page.offset),

    async count(projectId: number) {
      const [row] = await db('cluster_agents').where('project_id', projectId).count({ n: '*' });
      return Number(row!.n);
    },

    /** Registers an agent; invalid or taken names fail as GitLab's service reports them. */
    async create(projectId: number, name: string, userId: number): Promise<AgentWithReceptive> {
      const messages = await nameErrors(projectId, name);
      if (messages.length > 0) throw serviceError(messages);
      const now = new Date();
      try {
        const [inserted] = await db('cluster_agents')
          .insert({ project_id: projectId, name, created_by_user_id: userId, created_at: now, updated_at: now })
          .returning('id');
        return (await find(projectId, inserted.id))!;
      } catch (error) {
        // A concurrent request registered the same name between the check and the insert.
        if (isUniqueViolation(error)) throw serviceError([NAME_TAKEN]);
        throw error;
      }
    },

    /** Deletes the agent; its tokens and URL configuration go with it. */
    async remove(agentId: number) {
      await db('cluster_agents').where('id', agentId).delete();
    },

    async removeForProject(projectId: number) {
      await db('cluster_agents').where('project_id', projectId).delete();
    },
  };
}

export type AgentService = ReturnType<typeof createAgentService>;
