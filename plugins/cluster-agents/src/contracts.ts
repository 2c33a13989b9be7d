/** What other plugins may use of cluster agents: the service that authenticates agent tokens. */
import { createServiceRef } from '@forgekit/kernel';

/** The agent behind a presented agent token. */
export interface AuthenticatedAgent {
  tokenId: number;
  agentId: number;
  agentName: string;
  projectId: number;
}

export interface ClusterAgentsService {
  /**
   * The agent an agent token belongs to, or null for an unknown or revoked token.
   * A successful call records the use in the token's `last_used_at`.
   */
  authenticateAgentToken(secret: string): Promise<AuthenticatedAgent | null>;
}

export const clusterAgentsServiceRef = createServiceRef<ClusterAgentsService>('cluster-agents.service');
