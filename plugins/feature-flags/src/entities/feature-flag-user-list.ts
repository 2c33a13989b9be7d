import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A named list of external user ids, addressed by its per-project `iid`. */
export const FeatureFlagUserListEntity = defineEntity({
  name: 'FeatureFlagUserList',
  tableName: 'feature_flag_user_lists',
  uniques: [{ properties: ['projectId', 'iid'] }, { properties: ['projectId', 'name'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    projectId: p.integer(),
    iid: p.integer(),
    name: p.string().length(255),
    userXids: p.text().default(''),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type FeatureFlagUserListRow = InferEntity<typeof FeatureFlagUserListEntity>;
