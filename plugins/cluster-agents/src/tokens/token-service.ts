/** Agent tokens: the secret is shown once and stored only as a digest; at most two active per agent. */
import { generateToken, tokenDigest, type Database, type PageRequest } from '@forgekit/kernel';
import { ClusterAgent, type ClusterAgentRow } from '../entities/cluster-agent.js';
import { ClusterAgentToken, type ClusterAgentTokenRow } from '../entities/cluster-agent-token.js';
import type { AuthenticatedAgent } from '../refs.js';
import { blankMessage, isBlank, lengthMessage, serviceError } from '../shared/model-errors.js';

export const AGENT_TOKEN_PREFIX = 'fkagent-';
const SECRET_LENGTH = 50;
const ACTIVE_TOKENS_LIMIT = 2;
const LIMIT_MESSAGE = 'An agent can have only two active tokens at a time';

export interface NewAgentToken {
  name: string;
  description?: string | null;
}

function tokenErrors(input: NewAgentToken) {
  const messages: string[] = [];
  const description = lengthMessage('Description', input.description, 1024);
  if (description) messages.push(description);
  if (isBlank(input.name)) messages.push(blankMessage('Name'));
  const name = lengthMessage('Name', input.name, 255);
  if (name) messages.push(name);
  return messages;
}

export function createTokenService(database: Database) {
  const activeOf = (agentId: number) => database.legacy.from(ClusterAgentToken).where({ agent_id: agentId, status: 'active' });

  return {
    /** Active tokens, most recently used first and never-used ones last. */
    listActive: (agentId: number, page: PageRequest): Promise<ClusterAgentTokenRow[]> =>
      database.legacy.rows(
        ClusterAgentToken,
        activeOf(agentId).orderByRaw('last_used_at is null').orderBy('last_used_at', 'desc').orderBy('id', 'asc').limit(page.perPage).offset(page.offset),
      ),

    countActive: (agentId: number) => database.legacy.count(activeOf(agentId)),

    findActive: (agentId: number, tokenId: number): Promise<ClusterAgentTokenRow | undefined> =>
      database.legacy.row(ClusterAgentToken, activeOf(agentId).where('id', tokenId)),

    find: (agentId: number, tokenId: number): Promise<ClusterAgentTokenRow | undefined> =>
      database.legacy.row(ClusterAgentToken, database.legacy.from(ClusterAgentToken).where({ agent_id: agentId, id: tokenId })),

    /** Creates an active token and returns its secret, which is not kept. */
    async create(agent: ClusterAgentRow, input: NewAgentToken, userId: number): Promise<{ token: ClusterAgentTokenRow; secret: string }> {
      if ((await database.legacy.count(activeOf(agent.id))) >= ACTIVE_TOKENS_LIMIT) throw serviceError(LIMIT_MESSAGE);
      const messages = tokenErrors(input);
      if (messages.length > 0) throw serviceError(messages);
      const secret = generateToken(AGENT_TOKEN_PREFIX, SECRET_LENGTH);
      const now = new Date();
      const row: Omit<ClusterAgentTokenRow, 'id'> = {
        agentId: agent.id,
        projectId: agent.projectId,
        name: input.name,
        description: input.description ?? null,
        tokenDigest: tokenDigest(secret),
        status: 'active',
        createdByUserId: userId,
        lastUsedAt: null,
        createdAt: now,
        updatedAt: now,
      };
      // The count and the insert are one step, so concurrent requests cannot pass the limit together.
      const id = await database.legacy.insertGuarded(ClusterAgentToken, row, {
        count: { of: activeOf(agent.id), below: ACTIVE_TOKENS_LIMIT },
        lockKey: `cluster-agents:tokens:${agent.id}`,
      });
      if (id === null) throw serviceError(LIMIT_MESSAGE);
      return { token: { id, ...row }, secret };
    },

    /** Revoking keeps the row; a revoked token stays revoked. */
    revoke: (tokenId: number) => database.legacy.em().nativeUpdate(ClusterAgentToken, { id: tokenId }, { status: 'revoked', updatedAt: new Date() }),

    async authenticate(secret: string): Promise<AuthenticatedAgent | null> {
      const query = database.legacy
        .from(ClusterAgentToken, 't')
        .join(`${ClusterAgent.meta.tableName} as a`, 'a.id', 't.agent_id')
        .select(database.legacy.columns(ClusterAgent, 'a', 'a_'))
        .where('t.token_digest', tokenDigest(secret))
        .where('t.status', 'active');
      const token = await database.legacy.row(ClusterAgentToken, query, { joined: { agent: { entity: ClusterAgent, prefix: 'a_' } } });
      if (!token) return null;
      await database.legacy.em().nativeUpdate(ClusterAgentToken, { id: token.id }, { lastUsedAt: new Date() });
      return { tokenId: token.id, agentId: token.agentId, agentName: token.agent.name, projectId: token.projectId };
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
