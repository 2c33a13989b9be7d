/** Who follows whom, by property. */
import type { Database } from '@forgekit/kernel';
import { FollowEntity, type FollowRow } from '../entities/follow.js';

export function createFollowStore(database: Database) {
  const pair = (followerId: number, followeeId: number) => database.from(FollowEntity).where({ followerId, followeeId });

  return {
    /** The ids of the users `userId` follows. */
    followeeIdsOf: async (userId: number): Promise<number[]> =>
      (await database.rows(database.from(FollowEntity).where('followerId', userId).orderBy('followeeId'))).map((row) => row.followeeId),
    /** The ids of the users following `userId`. */
    followerIdsOf: async (userId: number): Promise<number[]> =>
      (await database.rows(database.from(FollowEntity).where('followeeId', userId).orderBy('followerId'))).map((row) => row.followerId),

    isFollowing: async (followerId: number, followeeId: number) => (await database.count(pair(followerId, followeeId).limit(1))) > 0,

    /**
     * Records the follow unless it exists or the follower already follows `limit` users, in one
     * guarded step. Answers whether it was recorded.
     */
    async follow(followerId: number, followeeId: number, limit: number): Promise<boolean> {
      const id = await database.insertGuarded(
        FollowEntity,
        { followerId, followeeId, createdAt: new Date() },
        {
          unlessExists: pair(followerId, followeeId),
          count: { of: database.from(FollowEntity).where('followerId', followerId), below: limit },
          lockKey: `follows:${followerId}`,
        },
      );
      return id !== null;
    },

    followeeCount: (followerId: number) => database.count(database.from(FollowEntity).where('followerId', followerId)),

    /** Answers whether there was a follow to remove. */
    unfollow: async (followerId: number, followeeId: number) => (await database.delete(FollowEntity, { followerId, followeeId })) > 0,

    /** Every follow that involves these users, either way. */
    involving: (userIds: readonly number[]): Promise<FollowRow[]> =>
      database.rows(database.from(FollowEntity).where((w) => w.whereIn('followerId', userIds).orWhereIn('followeeId', userIds))),

    removeAllOf: (userId: number) => database.delete(FollowEntity, { $or: [{ followerId: userId }, { followeeId: userId }] }),
  };
}

export type FollowStore = ReturnType<typeof createFollowStore>;
