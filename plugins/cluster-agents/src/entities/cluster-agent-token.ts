import { defineEntity } from '@forgekit/kernel/orm';

export const ClusterAgentToken = defineEntity({
  name: 'ClusterAgentToken',
  tableName: 'cluster_agent_tokens',
  properties: (p) => ({
    id: p.integer().primary(),
    agentId: p.integer(),
    projectId: p.integer(),
    name: p.string().length(255),
    description: p.text().nullable(),
    tokenDigest: p.string().length(64).unique(),
    status: p.string().length(16),
    createdByUserId: p.integer().nullable(),
    lastUsedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});
