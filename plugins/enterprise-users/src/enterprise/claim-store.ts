/** Enterprise claims, by property. */
import type { Database } from '@forgekit/kernel';
import { unlessTaken } from '@forgekit/kernel/orm';
import { EnterpriseClaimEntity, type EnterpriseClaimRow } from '../entities/enterprise-claim.js';

export function createClaimStore(database: Database) {
  return {
    userIdsOf: async (groupId: number): Promise<number[]> =>
      (await database.rows(database.from(EnterpriseClaimEntity).where('groupId', groupId))).map((row: EnterpriseClaimRow) => row.userId),
    findOf: (groupId: number, userId: number): Promise<EnterpriseClaimRow | undefined> =>
      database.row(database.from(EnterpriseClaimEntity).where({ groupId, userId })),
    /** The users among `userIds` some group already claimed. */
    async claimedAmong(userIds: readonly number[]): Promise<Set<number>> {
      if (userIds.length === 0) return new Set();
      const rows: EnterpriseClaimRow[] = await database.rows(database.from(EnterpriseClaimEntity).whereIn('userId', [...userIds]));
      return new Set(rows.map((row) => row.userId));
    },
    /** Records the claim unless another group claimed the user first. */
    claim: (row: Omit<EnterpriseClaimRow, 'id'>) => unlessTaken(database.insert(EnterpriseClaimEntity, row), () => null),
    removeUser: (userId: number) => database.delete(EnterpriseClaimEntity, { userId }),
    removeGroup: (groupId: number) => database.delete(EnterpriseClaimEntity, { groupId }),
  };
}

export type ClaimStore = ReturnType<typeof createClaimStore>;
