import { defineEntity } from '@forgekit/kernel/orm';

export const ClusterAgent = defineEntity({
  name: 'ClusterAgent',
  tableName: 'cluster_agents',
  properties: (p) => ({
    id: p.integer().primary(),
    projectId: p.integer(),
    name: p.string().length(255),
    createdByUserId: p.integer().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});
