import { defineEntity } from '@forgekit/kernel/orm';

export const FeatureFlag = defineEntity({
  name: 'FeatureFlag',
  tableName: 'feature_flags',
  properties: (p) => ({
    id: p.integer().primary(),
    projectId: p.integer(),
    name: p.string().length(255),
    description: p.text().nullable(),
    active: p.boolean().default(true),
    version: p.integer().default(2),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});
