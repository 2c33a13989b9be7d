/** Group SAML providers, by property. */
import type { Database } from '@forgekit/kernel';
import { SamlIdentityEntity } from '../entities/saml-identity.js';
import { SamlProviderEntity, type SamlProviderRow } from '../entities/saml-provider.js';

export type ProviderSettings = Pick<SamlProviderRow, 'enabled' | 'ssoUrl' | 'certificateFingerprint' | 'defaultMembershipRole'>;

export function createProviderStore(database: Database) {
  return {
    ofGroup: (groupId: number): Promise<SamlProviderRow | undefined> => database.row(database.from(SamlProviderEntity).where('groupId', groupId)),
    async insert(groupId: number, settings: ProviderSettings): Promise<void> {
      const now = new Date();
      await database.insert(SamlProviderEntity, { groupId, ...settings, createdAt: now, updatedAt: now });
    },
    async update(id: number, settings: Partial<ProviderSettings>): Promise<void> {
      await database.update(SamlProviderEntity, { id }, { ...settings, updatedAt: new Date() });
    },
    /** Removes the provider and the identities at it. */
    async remove(id: number): Promise<void> {
      await database.transaction(async (tx) => {
        await database.delete(SamlIdentityEntity, { samlProviderId: id }, { tx });
        await database.delete(SamlProviderEntity, { id }, { tx });
      });
    },
  };
}

export type ProviderStore = ReturnType<typeof createProviderStore>;
