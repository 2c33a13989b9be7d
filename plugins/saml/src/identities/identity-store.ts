/** Users' identities at group SAML providers, by property. */
import type { Database } from '@forgekit/kernel';
import { unlessTaken } from '@forgekit/kernel/orm';
import { SamlIdentityEntity, type SamlIdentityRow } from '../entities/saml-identity.js';

export function createIdentityStore(database: Database) {
  const atProvider = (samlProviderId: number) => database.from(SamlIdentityEntity).where('samlProviderId', samlProviderId);
  return {
    all: (samlProviderId: number): Promise<SamlIdentityRow[]> => database.rows(atProvider(samlProviderId).orderBy('id')),
    byExternUid: (samlProviderId: number, externUid: string): Promise<SamlIdentityRow | undefined> =>
      database.row(atProvider(samlProviderId).where('externUid', externUid)),
    ofUser: (samlProviderId: number, userId: number): Promise<SamlIdentityRow | undefined> => database.row(atProvider(samlProviderId).where('userId', userId)),
    /** Every identity of these users, at any provider. */
    ofUsers: (userIds: readonly number[]): Promise<SamlIdentityRow[]> =>
      database.rows(database.from(SamlIdentityEntity).whereIn('userId', userIds).orderBy('id')),
    /** The new identity's id, or null when the extern uid or the user already has one at this provider. */
    insert(samlProviderId: number, userId: number, externUid: string): Promise<number | null> {
      const now = new Date();
      return unlessTaken(database.insert(SamlIdentityEntity, { samlProviderId, userId, externUid, createdAt: now, updatedAt: now }), () => null);
    },
    /** Answers false when another identity at the provider has this extern uid. */
    async changeExternUid(id: number, externUid: string): Promise<boolean> {
      return unlessTaken(
        database.update(SamlIdentityEntity, { id }, { externUid, updatedAt: new Date() }).then(() => true),
        () => false,
      );
    },
    async remove(id: number): Promise<void> {
      await database.delete(SamlIdentityEntity, { id });
    },
    removeAllOfUser: async (userId: number): Promise<boolean> => (await database.delete(SamlIdentityEntity, { userId })) > 0,
  };
}

export type IdentityStore = ReturnType<typeof createIdentityStore>;
