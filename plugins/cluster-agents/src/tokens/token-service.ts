/** Agent tokens: the secret is shown once and stored only as a digest; at most two active per agent. */
import { generateToken, tokenDigest, type Database, type PageRequest } from '@forgekit/kernel';
import type { AuthenticatedAgent } from '../contracts.js';
import { ClusterAgentEntity, type ClusterAgentRow } from '../entities/cluster-agent.js';
import { ClusterAgentTokenEntity, type ClusterAgentTokenRow } from '../entities/cluster-agent-token.js';
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
  const activeOf = (agentId: number) => database.from(ClusterAgentTokenEntity).where({ agentId, status: 'active' });

  return {
    /** Active tokens, most recently used first and never-used ones last. */
    listActive: (agentId: number, page: PageRequest): Promise<ClusterAgentTokenRow[]> =>
      database.rows(activeOf(agentId).orderBy('lastUsedAt', 'desc', { nulls: 'last' }).orderBy('id').limit(page.perPage).offset(page.offset)),

    countActive: (agentId: number) => database.count(activeOf(agentId)),

    findActive: (agentId: number, tokenId: number): Promise<ClusterAgentTokenRow | undefined> => database.row(activeOf(agentId).where('id', tokenId)),

    find: (agentId: number, tokenId: number): Promise<ClusterAgentTokenRow | undefined> =>
      database.row(database.from(ClusterAgentTokenEntity).where({ agentId, id: tokenId })),

    /** Creates an active token and returns its secret, which is not kept. */
    async create(agent: ClusterAgentRow, input: NewAgentToken, userId: number): Promise<{ token: ClusterAgentTokenRow; secret: string }> {
      if ((await database.count(activeOf(agent.id))) >= ACTIVE_TOKENS_LIMIT) throw serviceError(LIMIT_MESSAGE);
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
      const id = await database.insertGuarded(ClusterAgentTokenEntity, row, {
        count: { of: activeOf(agent.id), below: ACTIVE_TOKENS_LIMIT },
        lockKey: `cluster-agents:tokens:${agent.id}`,
      });
      if (id === null) throw serviceError(LIMIT_MESSAGE);
      return { token: { id, ...row }, secret };
    },

    /** Revoking keeps the row; a revoked token stays revoked. */
    revoke: (tokenId: number) => database.update(ClusterAgentTokenEntity, { id: tokenId }, { status: 'revoked', updatedAt: new Date() }),

    async authenticate(secret: string): Promise<AuthenticatedAgent | null> {
      const query = database
        .from(ClusterAgentTokenEntity, 't')
        .join(ClusterAgentEntity, 'a', 'a.id', 't.agentId')
        .nest('agent', 'a')
        .where({ 't.tokenDigest': tokenDigest(secret), 't.status': 'active' });
      const token = await database.row(query);
      if (!token?.agent) return null;
      await database.update(ClusterAgentTokenEntity, { id: token.id }, { lastUsedAt: new Date() });
      return { tokenId: token.id, agentId: token.agentId, agentName: token.agent.name, projectId: token.projectId };
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
