/** Pending invitations, by property. */
import type { Database } from '@forgekit/kernel';
import type { MemberSource } from '@forgekit/plugin-core/contracts';
import { InvitationEntity, type InvitationRow } from '../entities/invitation.js';

export type NewInvitation = Omit<InvitationRow, 'id'>;

export function createInvitationStore(database: Database) {
  const ofSource = (source: MemberSource) => database.from(InvitationEntity).where({ sourceType: source.type, sourceId: source.id });

  return {
    /** A page of the source's invitations, optionally only the one for `email`, with their total. */
    async page(
      source: MemberSource,
      email: string | undefined,
      limit: number,
      offset: number,
    ): Promise<{ rows: InvitationRow[]; count: () => Promise<number> }> {
      const query = ofSource(source);
      if (email) query.where('inviteEmail', email.toLowerCase());
      const rows = await database.rows(query.clone().orderBy('id').limit(limit).offset(offset));
      return { rows, count: () => database.count(query) };
    },
    find: (source: MemberSource, email: string): Promise<InvitationRow | undefined> => database.row(ofSource(source).where('inviteEmail', email.toLowerCase())),
    findByTokenDigest: (tokenDigest: string): Promise<InvitationRow | undefined> =>
      database.row(database.from(InvitationEntity).where('tokenDigest', tokenDigest)),
    /** Every invitation of this address, on any source. */
    forEmail: (email: string): Promise<InvitationRow[]> =>
      database.rows(database.from(InvitationEntity).where('inviteEmail', email.toLowerCase()).orderBy('id')),
    insert: (row: NewInvitation): Promise<number> => database.insert(InvitationEntity, row),
    async update(id: number, patch: Partial<Pick<InvitationRow, 'accessLevel' | 'expiresAt'>>): Promise<void> {
      await database.update(InvitationEntity, { id }, { ...patch, updatedAt: new Date() });
    },
    /** Answers whether there was one to remove. */
    remove: async (id: number) => (await database.delete(InvitationEntity, { id })) > 0,
    async removeAllOf(source: MemberSource): Promise<void> {
      await database.delete(InvitationEntity, { sourceType: source.type, sourceId: source.id });
    },
    async forgetCreator(userId: number): Promise<void> {
      await database.update(InvitationEntity, { createdById: userId }, { createdById: null });
    },
  };
}

export type InvitationStore = ReturnType<typeof createInvitationStore>;
