import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

export type TokenStatus = 'active' | 'revoked';

export const ClusterAgentTokenEntity = defineEntity({
  name: 'ClusterAgentToken',
  tableName: 'cluster_agent_tokens',
  indexes: [{ properties: ['agentId', 'status'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    agentId: p.integer(),
    projectId: p.integer().index(),
    name: p.string().length(255),
    description: p.text().nullable(),
    tokenDigest: p.string().length(64).unique(),
    status: p.string().$type<TokenStatus>().length(16).default('active'),
    createdByUserId: p.integer().nullable(),
    lastUsedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type ClusterAgentTokenRow = InferEntity<typeof ClusterAgentTokenEntity>;
