/** GitLab's AgentTokenBasic, AgentToken (adds `last_used_at`) and AgentTokenWithToken (adds the secret). */
import type { ClusterAgentTokenRow } from '../entities/cluster-agent-token.js';

export function presentTokenBasic(token: ClusterAgentTokenRow) {
  return {
    id: token.id,
    name: token.name,
    description: token.description,
    agent_id: token.agentId,
    status: token.status,
    created_at: token.createdAt.toISOString(),
    created_by_user_id: token.createdByUserId,
  };
}

export const presentToken = (token: ClusterAgentTokenRow) => ({ ...presentTokenBasic(token), last_used_at: token.lastUsedAt?.toISOString() ?? null });

export const presentTokenWithSecret = (token: ClusterAgentTokenRow, secret: string) => ({ ...presentToken(token), token: secret });
