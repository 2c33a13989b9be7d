import { defineEntity } from '@forgekit/kernel/orm';

export const FeatureFlagUserList = defineEntity({
  name: 'FeatureFlagUserList',
  tableName: 'feature_flag_user_lists',
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
