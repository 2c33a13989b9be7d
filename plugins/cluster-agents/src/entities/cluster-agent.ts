import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

export const ClusterAgentEntity = defineEntity({
  name: 'ClusterAgent',
  tableName: 'cluster_agents',
  uniques: [{ properties: ['projectId', 'name'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    projectId: p.integer(),
    name: p.string().length(255),
    createdByUserId: p.integer().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type ClusterAgentRow = InferEntity<typeof ClusterAgentEntity>;
