import { defineEntity } from '@forgekit/kernel/orm';

export const FeatureFlagStrategy = defineEntity({
  name: 'FeatureFlagStrategy',
  tableName: 'feature_flag_strategies',
  properties: (p) => ({
    id: p.integer().primary(),
    featureFlagId: p.integer(),
    name: p.string().length(255),
    parameters: p.text().default('{}'),
    userListId: p.integer().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});
