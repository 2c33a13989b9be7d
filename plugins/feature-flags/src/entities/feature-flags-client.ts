import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** The Unleash client credential of a project (its "instance id"). */
export const FeatureFlagsClientEntity = defineEntity({
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

export type FeatureFlagsClientRow = InferEntity<typeof FeatureFlagsClientEntity>;
