import { defineEntity } from '@forgekit/kernel/orm';

export const FeatureFlagsClient = defineEntity({
  name: 'FeatureFlagsClient',
  tableName: 'feature_flags_clients',
  properties: (p) => ({
    id: p.integer().primary(),
    projectId: p.integer().unique(),
    token: p.string().length(64),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});
