import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A flag's strategy; `parameters` is a JSON object, `userListId` only for `serviceUserList`. */
export const FeatureFlagStrategyEntity = defineEntity({
  name: 'FeatureFlagStrategy',
  tableName: 'feature_flag_strategies',
  indexes: [{ properties: ['featureFlagId'] }, { properties: ['userListId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    featureFlagId: p.integer(),
    name: p.string().length(255),
    parameters: p.json<Record<string, unknown>>().columnType('text').default('{}'),
    userListId: p.integer().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type FeatureFlagStrategyRow = InferEntity<typeof FeatureFlagStrategyEntity>;
