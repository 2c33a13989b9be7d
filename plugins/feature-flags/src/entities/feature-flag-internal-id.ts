import { defineEntity } from '@forgekit/kernel/orm';

export const FeatureFlagInternalId = defineEntity({
  name: 'FeatureFlagInternalId',
  tableName: 'feature_flag_internal_ids',
  properties: (p) => ({
    projectId: p.integer().primary(),
    usage: p.string().length(32).primary(),
    lastValue: p.integer(),
  }),
});
