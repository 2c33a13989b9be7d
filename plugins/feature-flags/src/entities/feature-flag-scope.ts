import { defineEntity } from '@forgekit/kernel/orm';

export const FeatureFlagScope = defineEntity({
  name: 'FeatureFlagScope',
  tableName: 'feature_flag_scopes',
  properties: (p) => ({
    id: p.integer().primary(),
    strategyId: p.integer(),
    environmentScope: p.text(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});
