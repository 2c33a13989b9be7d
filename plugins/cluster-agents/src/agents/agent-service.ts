/** Agents registered with a project: names unique per project, ordered by name. */
import type { Database, PageRequest } from '@forgekit/kernel';
import { unlessTaken } from '@forgekit/kernel/orm';
import { ClusterAgent, type ClusterAgentRow } from '../entities/cluster-agent.js';
import { ClusterAgentUrlConfiguration } from '../entities/cluster-agent-url-configuration.js';
import { blankMessage, isBlank, lengthMessage, serviceError } from '../shared/model-errors.js';

const NAME_FORMAT = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const NAME_FORMAT_MESSAGE = "Name can contain only lowercase letters, digits, and '-', but cannot start or end with '-'";
const NAME_TAKEN = 'Name has already been taken';
const NAME_MAX = 63;

/** An agent with the id of the URL configuration that makes it receptive, if it has one. */
export type AgentWithReceptive = ClusterAgentRow & { url_configuration_id: number | null };

export function createAgentService(database: Database) {
  const agents = () =>
    database.legacy
      .table(ClusterAgent, 'a')
      .leftJoin(`${ClusterAgentUrlConfiguration.meta.tableName} as u`, 'u.agent_id', 'a.id')
      .select([...database.legacy.columns(ClusterAgent, 'a'), 'u.id as url_configuration_id']);
  const ofProject = (projectId: number) => database.legacy.from(ClusterAgent).where('project_id', projectId);

  const find = (projectId: number, agentId: number) =>
    database.legacy.row(ClusterAgent, agents().where('a.project_id', projectId).where('a.id', agentId)) as Promise<AgentWithReceptive | undefined>;

  async function nameErrors(projectId: number, name: string) {
    const messages: string[] = [];
    if (isBlank(name)) messages.push(blankMessage('Name'));
    const tooLong = lengthMessage('Name', name, NAME_MAX);
    if (tooLong) messages.push(tooLong);
    if (await database.legacy.row(ClusterAgent, ofProject(projectId).where('name', name))) messages.push(NAME_TAKEN);
    if (!NAME_FORMAT.test(name)) messages.push(NAME_FORMAT_MESSAGE);
    return messages;
  }

  return {
    find,

    list: (projectId: number, page: PageRequest) =>
      database.legacy.rows(
        ClusterAgent,
        agents().where('a.project_id', projectId).orderBy('a.name', 'asc').orderBy('a.id', 'asc').limit(page.perPage).offset(page.offset),
      ) as Promise<AgentWithReceptive[]>,

    count: (projectId: number) => database.legacy.count(ofProject(projectId)),

    /** Registers an agent; invalid or taken names fail as GitLab's service reports them. */
    async create(projectId: number, name: string, userId: number): Promise<AgentWithReceptive> {
      const messages = await nameErrors(projectId, name);
      if (messages.length > 0) throw serviceError(messages);
      const now = new Date();
      const row = { projectId, name, createdByUserId: userId, createdAt: now, updatedAt: now };
      // A concurrent request may register the same name between the check and the insert.
      const id = await unlessTaken(database.legacy.em().insert<ClusterAgentRow>(ClusterAgent, row), () => {
        throw serviceError([NAME_TAKEN]);
      });
      return { id: Number(id), ...row, url_configuration_id: null };
    },

    /** Deletes the agent; its tokens and URL configuration go with it. */
    remove: (agentId: number) => database.legacy.em().nativeDelete(ClusterAgent, { id: agentId }),

    removeForProject: (projectId: number) => database.legacy.em().nativeDelete(ClusterAgent, { projectId }),
  };
}

export type AgentService = ReturnType<typeof createAgentService>;
