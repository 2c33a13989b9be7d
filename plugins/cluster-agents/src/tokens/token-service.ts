/** Agent tokens: the secret is shown once and stored only as a digest; at most two active per agent. */
import { generateToken, tokenDigest, type Dialect, type PageRequest } from '@forgekit/kernel';
import type { Knex } from '@forgekit/kernel/orm';
import type { AuthenticatedAgent } from '../refs.js';
import { blankMessage, isBlank, lengthMessage, serviceError } from '../shared/model-errors.js';
import type { AgentRow, TokenRow } from '../shared/rows.js';

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

export function createTokenService(db: Knex, dialect: Dialect) {
  const activeOf = (q: Knex, agentId: number) => q<TokenRow>('cluster_agent_tokens').where({ agent_id: agentId, status: 'active' });

  return {
    /** Active tokens, most recently used first and never-used ones last. */
    listActive: (agentId: number, page: PageRequest): Promise<TokenRow[]> =>
      activeOf(db, agentId).orderByRaw('last_used_at is null').orderBy('last_used_at', 'desc').orderBy('id', 'asc').limit(page.perPage).offset(page.offset),

    async countActive(agentId: number) {
      const [row] = await activeOf(db, agentId).count({ n: '*' });
      return Number(row!.n);
    },

    findActive: (agentId: number, tokenId: number): Promise<TokenRow | undefined> => activeOf(db, agentId).where('id', tokenId).first(),

    find: (agentId: number, tokenId: number): Promise<TokenRow | undefined> =>
      db<TokenRow>('cluster_agent_tokens').where({ agent_id: agentId, id: tokenId }).first(),

    /** Creates an active token and returns its secret, which is not kept. */
    async create(agent: AgentRow, input: NewAgentToken, userId: number): Promise<{ token: TokenRow; secret: string }> {
      return db.transaction(async (trx) => {
        // Serialises token creation per agent so concurrent requests cannot pass the limit together.
        if (dialect === 'postgresql') await trx('cluster_agents').where('id', agent.id).forUpdate().first('id');
        const [active] = await activeOf(trx, agent.id).count({ n: '*' });
        if (Number(active!.n) >= ACTIVE_TOKENS_LIMIT) throw serviceError(LIMIT_MESSAGE);
        const messages = tokenErrors(input);
        if (messages.length > 0) throw serviceError(messages);
        const secret = generateToken(AGENT_TOKEN_PREFIX, SECRET_LENGTH);
        const now = new Date();
        const [inserted] = await trx('cluster_agent_tokens')
          .insert({
            agent_id: agent.id,
            project_id: agent.project_id,
            name: input.name,
            description: input.description ?? null,
            token_digest: tokenDigest(secret),
            status: 'active',
            created_by_user_id: userId,
            created_at: now,
            updated_at: now,
          })
          .returning('id');
        const token = (await trx<TokenRow>('cluster_agent_tokens').where('id', inserted.id).first())!;
        return { token, secret };
      });
    },

    /** Revoking keeps the row; a revoked token stays revoked. */
    async revoke(tokenId: number) {
      await db('cluster_agent_tokens').where('id', tokenId).update({ status: 'revoked', updated_at: new Date() });
    },

    async authenticate(secret: string): Promise<AuthenticatedAgent | null> {
      const row: { id: number; agent_id: number; project_id: number; agent_name: string } | undefined = await db('cluster_agent_tokens as t')
        .join('cluster_agents as a', 'a.id', 't.agent_id')
        .where('t.token_digest', tokenDigest(secret))
        .where('t.status', 'active')
        .first('t.id', 't.agent_id', 't.project_id', 'a.name as agent_name');
      if (!row) return null;
      await db('cluster_agent_tokens').where('id', row.id).update({ last_used_at: new Date() });
      return { tokenId: row.id, agentId: row.agent_id, agentName: row.agent_name, projectId: row.project_id };
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
