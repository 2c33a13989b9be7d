/** Notes in the database: reads through the entity, writes through the EntityManager. */
import type { Database } from '@forgekit/kernel';
import { idListReads, type EntityManager } from '@forgekit/kernel/orm';
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

export function createNoteStore(database: Database) {
  const userNoteCountRows = idListReads((ids) =>
    database.legacy.prepareValues(
      (p: Record<string, never>) =>
        database.legacy
          .table(NoteEntity)
          .select({ noteableId: 'noteable_id' })
          .count({ count: '*' })
          .where({ noteable_type: p.noteableType, system: false })
          .whereIn('noteable_id', ids(p))
          .groupBy('noteable_id'),
      { noteableId: 'number', count: 'number' },
    ),
  );
  const ofNoteable = (query: Pick<NoteListQuery, 'noteableType' | 'noteableId' | 'activity'>) => {
    const builder = database.legacy.from(NoteEntity).where({ noteable_type: query.noteableType, noteable_id: query.noteableId });
    if (query.activity === 'only_comments') builder.where('system', false);
    if (query.activity === 'only_activity') builder.where('system', true);
    return builder;
  };

  return {
    async insert(row: Omit<NoteRow, 'id'>, em?: EntityManager): Promise<number> {
      return Number(await (em ?? database.legacy.em()).insert<NoteRow>(NoteEntity, row));
    },
    list(query: NoteListQuery): Promise<NoteRow[]> {
      const builder = ofNoteable(query).orderBy([
        { column: query.orderBy, order: query.sort },
        { column: 'id', order: query.sort },
      ]);
      return database.legacy.rows(NoteEntity, builder.limit(query.limit).offset(query.offset));
    },
    count: (query: Pick<NoteListQuery, 'noteableType' | 'noteableId' | 'activity'>) => database.legacy.count(ofNoteable(query).clearSelect().select('id')),
    /** Counts of non-system notes per noteable (`user_notes_count`). */
    async userNoteCounts(noteableType: NoteableType, noteableIds: readonly number[]): Promise<Map<number, number>> {
      if (noteableIds.length === 0) return new Map();
      const rows = await userNoteCountRows.all(noteableIds, { noteableType });
      return new Map(rows.map((row) => [row.noteableId, row.count]));
    },
    removeAllFor: (noteableType: NoteableType, noteableId: number, em?: EntityManager) =>
      (em ?? database.legacy.em()).nativeDelete(NoteEntity, { noteableType, noteableId }),
    removeAllOfProject: (projectId: number) => database.legacy.em().nativeDelete(NoteEntity, { projectId }),
  };
}

export type NoteStore = ReturnType<typeof createNoteStore>;
