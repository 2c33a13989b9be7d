/** Notes in the database, read and written by property. */
import type { Database, Transaction } from '@forgekit/kernel';
import type { NoteableType } from '../contracts.js';
import { NoteEntity, type NoteRow } from '../entities/note.js';

export type ActivityFilter = 'all_notes' | 'only_comments' | 'only_activity';

export interface NoteListQuery {
  noteableType: NoteableType;
  noteableId: number;
  activity: ActivityFilter;
  orderBy: 'created_at' | 'updated_at';
  sort: 'asc' | 'desc';
  limit: number;
  offset: number;
}

const ORDER_PROPERTIES = { created_at: 'createdAt', updated_at: 'updatedAt' } as const;

export function createNoteStore(database: Database) {
  const userNoteCountRows = database.prepareValues(
    (p) =>
      database
        .table(NoteEntity)
        .select({ noteableId: 'noteableId' })
        .count({ count: '*' })
        .where({ noteableType: p.noteableType, system: false })
        .whereIn('noteableId', p.ids)
        .groupBy('noteableId'),
    { noteableId: 'number', count: 'number' },
  );
  const ofNoteable = (query: Pick<NoteListQuery, 'noteableType' | 'noteableId' | 'activity'>) => {
    const builder = database.from(NoteEntity).where({ noteableType: query.noteableType, noteableId: query.noteableId });
    if (query.activity === 'only_comments') builder.where('system', false);
    if (query.activity === 'only_activity') builder.where('system', true);
    return builder;
  };

  return {
    insert: (row: Omit<NoteRow, 'id'>, tx?: Transaction): Promise<number> => database.insert(NoteEntity, row, { tx }),
    list(query: NoteListQuery): Promise<NoteRow[]> {
      const builder = ofNoteable(query).orderBy(ORDER_PROPERTIES[query.orderBy], query.sort).orderBy('id', query.sort);
      return database.rows(builder.limit(query.limit).offset(query.offset));
    },
    count: (query: Pick<NoteListQuery, 'noteableType' | 'noteableId' | 'activity'>) => database.count(ofNoteable(query)),
    /** Counts of non-system notes per noteable (`user_notes_count`). */
    async userNoteCounts(noteableType: NoteableType, noteableIds: readonly number[]): Promise<Map<number, number>> {
      if (noteableIds.length === 0) return new Map();
      const rows = await userNoteCountRows.all({ noteableType, ids: noteableIds });
      return new Map(rows.map((row) => [row.noteableId, row.count]));
    },
    removeAllFor: (noteableType: NoteableType, noteableId: number) => database.delete(NoteEntity, { noteableType, noteableId }),
    removeAllOfProject: (projectId: number) => database.delete(NoteEntity, { projectId }),
  };
}

export type NoteStore = ReturnType<typeof createNoteStore>;
