import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A user following another (GitLab's `user_follow_users`). */
export const FollowEntity = defineEntity({
  name: 'Follow',
  tableName: 'user_follow_users',
  uniques: [{ properties: ['followerId', 'followeeId'] }],
  indexes: [{ properties: ['followeeId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    followerId: p.integer(),
    followeeId: p.integer(),
    createdAt: p.datetime(),
  }),
});

export type FollowRow = InferEntity<typeof FollowEntity>;
