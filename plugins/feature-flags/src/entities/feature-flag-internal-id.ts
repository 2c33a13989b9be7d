import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** The last internal id handed out per project and usage; never reused after a delete. */
export const FeatureFlagInternalIdEntity = defineEntity({
  name: 'FeatureFlagInternalId',
  tableName: 'feature_flag_internal_ids',
  properties: (p) => ({
    projectId: p.integer().primary(),
    usage: p.string().length(32).primary(),
    lastValue: p.integer(),
  }),
});

export type FeatureFlagInternalIdRow = InferEntity<typeof FeatureFlagInternalIdEntity>;
