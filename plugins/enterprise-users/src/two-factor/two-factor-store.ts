/** Users' TOTP authenticators, by property. */
import type { Database } from '@forgekit/kernel';
import { TwoFactorEntity, type TwoFactorRow } from '../entities/two-factor.js';

export function createTwoFactorStore(database: Database) {
  return {
    findOf: (userId: number): Promise<TwoFactorRow | undefined> => database.row(database.from(TwoFactorEntity).where('userId', userId)),
    /** The users among `userIds` with two-factor enabled. */
    async enabledAmong(userIds: readonly number[]): Promise<Set<number>> {
      if (userIds.length === 0) return new Set();
      const rows: TwoFactorRow[] = await database.rows(
        database
          .from(TwoFactorEntity)
          .whereIn('userId', [...userIds])
          .whereNotNull('enabledAt'),
      );
      return new Set(rows.map((row) => row.userId));
    },
    /** Starts an enrolment over any earlier pending one. */
    async begin(userId: number, sealedSecret: string): Promise<void> {
      const now = new Date();
      await database.transaction(async (tx) => {
        await database.delete(TwoFactorEntity, { userId }, { tx });
        await database.insert(TwoFactorEntity, { userId, sealedSecret, enabledAt: null, createdAt: now, updatedAt: now }, { tx });
      });
    },
    enable: (userId: number) => database.update(TwoFactorEntity, { userId }, { enabledAt: new Date(), updatedAt: new Date() }),
    remove: (userId: number) => database.delete(TwoFactorEntity, { userId }),
  };
}

export type TwoFactorStore = ReturnType<typeof createTwoFactorStore>;
