/** SAML group links, by property. */
import type { Database } from '@forgekit/kernel';
import { SamlGroupLinkEntity, type SamlGroupLinkRow } from '../entities/saml-group-link.js';

export type NewLink = Pick<SamlGroupLinkRow, 'groupId' | 'rootGroupId' | 'name' | 'accessLevel' | 'memberRoleId' | 'provider'>;

export function createLinkStore(database: Database) {
  const ofGroup = (groupId: number) => database.from(SamlGroupLinkEntity).where('groupId', groupId);
  const sameKey = (link: Pick<NewLink, 'groupId' | 'name' | 'provider'>) => {
    const query = ofGroup(link.groupId).where('name', link.name);
    return link.provider == null ? query.whereNull('provider') : query.where('provider', link.provider);
  };
  return {
    all: (groupId: number): Promise<SamlGroupLinkRow[]> => database.rows(ofGroup(groupId).orderBy('id')),
    /** The group's links of this name; only those of `provider` when it is given (null: those without one). */
    named(groupId: number, name: string, provider?: string | null): Promise<SamlGroupLinkRow[]> {
      const query = ofGroup(groupId).where('name', name);
      if (provider === null) query.whereNull('provider');
      else if (provider !== undefined) query.where('provider', provider);
      return database.rows(query.orderBy('id'));
    },
    /** Every link under a top-level group, for applying a sign-in's SAML groups. */
    underRoot: (rootGroupId: number): Promise<SamlGroupLinkRow[]> =>
      database.rows(database.from(SamlGroupLinkEntity).where('rootGroupId', rootGroupId).orderBy('id')),
    /** The new link's id, or null when the group has a link of this name and provider. */
    insert: (link: NewLink): Promise<number | null> =>
      database.insertGuarded(
        SamlGroupLinkEntity,
        { ...link, createdAt: new Date() },
        { unlessExists: sameKey(link), lockKey: `saml-group-links:${link.groupId}` },
      ),
    byId: async (id: number): Promise<SamlGroupLinkRow> => (await database.row(database.from(SamlGroupLinkEntity).where('id', id)))!,
    async remove(id: number): Promise<void> {
      await database.delete(SamlGroupLinkEntity, { id });
    },
    async removeAllOf(groupId: number): Promise<void> {
      await database.delete(SamlGroupLinkEntity, { groupId });
    },
  };
}

export type LinkStore = ReturnType<typeof createLinkStore>;
