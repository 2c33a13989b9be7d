/** Agents registered with a project: names unique per project, ordered by name. */
import type { Database, PageRequest } from '@forgekit/kernel';
import { unlessTaken } from '@forgekit/kernel/orm';
import { ClusterAgentEntity, type ClusterAgentRow } from '../entities/cluster-agent.js';
import { ClusterAgentUrlConfigurationEntity } from '../entities/cluster-agent-url-configuration.js';
import { blankMessage, isBlank, lengthMessage, serviceError } from '../shared/model-errors.js';

const NAME_FORMAT = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const NAME_FORMAT_MESSAGE = "Name can contain only lowercase letters, digits, and '-', but cannot start or end with '-'";
const NAME_TAKEN = 'Name has already been taken';
const NAME_MAX = 63;

/** An agent with the id of the URL configuration that makes it receptive, if it has one. */
export type AgentWithReceptive = ClusterAgentRow & { urlConfigurationId: number | null };

export function createAgentService(database: Database) {
  const agents = (projectId: number) =>
    database
      .from(ClusterAgentEntity, 'a')
      .leftJoin(ClusterAgentUrlConfigurationEntity, 'u', 'u.agentId', 'a.id')
      .select({ urlConfigurationId: 'u.id' })
      .where('a.projectId', projectId);
  const ofProject = (projectId: number) => database.from(ClusterAgentEntity).where('projectId', projectId);

  const find = async (projectId: number, agentId: number) => (await database.row(agents(projectId).where('a.id', agentId))) as AgentWithReceptive | undefined;

  async function nameErrors(projectId: number, name: string) {
    const messages: string[] = [];
    if (isBlank(name)) messages.push(blankMessage('Name'));
    const tooLong = lengthMessage('Name', name, NAME_MAX);
    if (tooLong) messages.push(tooLong);
    if (await database.row(ofProject(projectId).where('name', name))) messages.push(NAME_TAKEN);
    if (!NAME_FORMAT.test(name)) messages.push(NAME_FORMAT_MESSAGE);
    return messages;
  }

  return {
    find,

    list: async (projectId: number, page: PageRequest) =>
      (await database.rows(agents(projectId).orderBy('a.name').orderBy('a.id').limit(page.perPage).offset(page.offset))) as AgentWithReceptive[],

    count: (projectId: number) => database.count(ofProject(projectId)),

    /** Registers an agent; invalid or taken names fail as GitLab's service reports them. */
    async create(projectId: number, name: string, userId: number): Promise<AgentWithReceptive> {
      const messages = await nameErrors(projectId, name);
      if (messages.length > 0) throw serviceError(messages);
      const now = new Date();
      const row = { projectId, name, createdByUserId: userId, createdAt: now, updatedAt: now };
      // A concurrent request may register the same name between the check and the insert.
      const id = await unlessTaken(database.insert(ClusterAgentEntity, row), () => {
        throw serviceError([NAME_TAKEN]);
      });
      return { id, ...row, urlConfigurationId: null };
    },

    /** Deletes the agent; its tokens and URL configuration go with it. */
    remove: (agentId: number) => database.delete(ClusterAgentEntity, { id: agentId }),

    removeForProject: (projectId: number) => database.delete(ClusterAgentEntity, { projectId }),
  };
}

export type AgentService = ReturnType<typeof createAgentService>;
