import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A project's feature flag; `version` is 2 (`new_version_flag`), the only one that can still be created. */
export const FeatureFlagEntity = defineEntity({
  name: 'FeatureFlag',
  tableName: 'feature_flags',
  uniques: [{ properties: ['projectId', 'name'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    projectId: p.integer(),
    name: p.string().length(255),
    description: p.text().nullable(),
    active: p.boolean().default(true),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type FeatureFlagRow = InferEntity<typeof FeatureFlagEntity>;
