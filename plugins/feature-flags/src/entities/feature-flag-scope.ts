import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** An environment scope of a strategy. */
export const FeatureFlagScopeEntity = defineEntity({
  name: 'FeatureFlagScope',
  tableName: 'feature_flag_scopes',
  indexes: [{ properties: ['strategyId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    strategyId: p.integer(),
    environmentScope: p.text(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type FeatureFlagScopeRow = InferEntity<typeof FeatureFlagScopeEntity>;
