/** Award emoji in the database, read and written by property. */
import type { Database } from '@forgekit/kernel';
import { AwardEmojiEntity, type AwardableType, type AwardEmojiRow } from '../entities/award-emoji.js';

export interface Awardable {
  awardableType: AwardableType;
  awardableId: number;
}

export function createAwardEmojiStore(database: Database) {
  const voteRows = database.prepareValues(
    (p) =>
      database
        .table(AwardEmojiEntity)
        .select({ awardableId: 'awardableId', name: 'name' })
        .count({ count: '*' })
        .where({ awardableType: p.awardableType })
        .whereIn('awardableId', p.ids)
        .whereIn('name', p.names)
        .groupBy('awardableId', 'name'),
    { awardableId: 'number', name: 'string', count: 'number' },
  );
  const ofAwardable = (awardable: Awardable) => database.from(AwardEmojiEntity).where({ ...awardable });
  return {
    list: (awardable: Awardable, limit: number, offset: number): Promise<AwardEmojiRow[]> =>
      database.rows(ofAwardable(awardable).orderBy('id', 'asc').limit(limit).offset(offset)),
    count: (awardable: Awardable) => database.count(ofAwardable(awardable)),
    find: (awardable: Awardable, id: number): Promise<AwardEmojiRow | undefined> => database.row(ofAwardable(awardable).where({ id })),
    findByUserAndName: (awardable: Awardable, userId: number, name: string): Promise<AwardEmojiRow | undefined> =>
      database.row(ofAwardable(awardable).where({ userId, name })),
    insert: (row: Omit<AwardEmojiRow, 'id'>) => database.insert(AwardEmojiEntity, row),
    remove: (id: number) => database.delete(AwardEmojiEntity, { id }),
    removeAllOf: async (awardableType: AwardableType, awardableIds: readonly number[]) => {
      if (awardableIds.length > 0) await database.delete(AwardEmojiEntity, { awardableType, awardableId: { $in: [...awardableIds] } });
    },
    removeAllOfProject: (projectId: number) => database.delete(AwardEmojiEntity, { projectId }),
    removeAllOfUser: (userId: number) => database.delete(AwardEmojiEntity, { userId }),
    /** Counts of the named awards per awardable. */
    countsByName: (awardableType: AwardableType, ids: readonly number[], names: readonly string[]) => voteRows.all({ awardableType, ids, names }),
  };
}

export type AwardEmojiStore = ReturnType<typeof createAwardEmojiStore>;
