/** Notes in the database, read and written by property. */
import type { Database, Transaction } from '@forgekit/kernel';
import type { NoteableType } from '../contracts.js';
import { NoteEntity, type NoteRow } from '../entities/note.js';

export type ActivityFilter = 'all_notes' | 'only_comments' | 'only_activity';

export interface NoteScope {
  noteableType: NoteableType;
  noteableId: number;
  /** Whether internal notes count: only for callers who may see them. */
  withInternal: boolean;
}

export interface NoteListQuery extends NoteScope {
  activity: ActivityFilter;
  orderBy: 'created_at' | 'updated_at';
  sort: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export type NewNote = Omit<NoteRow, 'id'>;
export type NoteChanges = Partial<Pick<NoteRow, 'body' | 'internal' | 'type' | 'resolvedAt' | 'resolvedById' | 'updatedAt'>>;

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
  const ofNoteable = (scope: NoteScope, activity: ActivityFilter = 'all_notes') => {
    const builder = database.from(NoteEntity).where({ noteableType: scope.noteableType, noteableId: scope.noteableId });
    if (!scope.withInternal) builder.where('internal', false);
    if (activity === 'only_comments') builder.where('system', false);
    if (activity === 'only_activity') builder.where('system', true);
    return builder;
  };

  return {
    insert: (row: NewNote, tx?: Transaction): Promise<number> => database.insert(NoteEntity, row, { tx }),
    list(query: NoteListQuery): Promise<NoteRow[]> {
      const builder = ofNoteable(query, query.activity).orderBy(ORDER_PROPERTIES[query.orderBy], query.sort).orderBy('id', query.sort);
      return database.rows(builder.limit(query.limit).offset(query.offset));
    },
    count: (scope: NoteScope, activity: ActivityFilter) => database.count(ofNoteable(scope, activity)),
    /** Every note of a noteable, oldest first: the discussions are built from them. */
    all: (scope: NoteScope): Promise<NoteRow[]> => database.rows(ofNoteable(scope).orderBy('createdAt', 'asc').orderBy('id', 'asc')),
    findById: (id: number): Promise<NoteRow | undefined> => database.row(database.from(NoteEntity).where({ id })),
    latestUserNoteOf: (projectId: number): Promise<NoteRow | undefined> =>
      database.row(database.from(NoteEntity).where({ projectId, system: false }).orderBy('id', 'desc').limit(1)),
    /** A note of the noteable, internal or not. */
    find: (noteableType: NoteableType, noteableId: number, id: number): Promise<NoteRow | undefined> =>
      database.row(database.from(NoteEntity).where({ id, noteableType, noteableId })),
    ofDiscussion: (scope: NoteScope, discussionId: string): Promise<NoteRow[]> =>
      database.rows(ofNoteable(scope).where('discussionId', discussionId).orderBy('createdAt', 'asc').orderBy('id', 'asc')),
    update: (id: number, changes: NoteChanges, tx?: Transaction) => database.update(NoteEntity, { id }, changes, { tx }),
    resolveDiscussion: (discussionId: string, changes: Pick<NoteRow, 'resolvedAt' | 'resolvedById'>) =>
      database.update(NoteEntity, { discussionId, resolvable: true }, changes),
    remove: (id: number, tx?: Transaction) => database.delete(NoteEntity, { id }, { tx }),
    /** Counts of non-system notes per noteable (`user_notes_count`). */
    async userNoteCounts(noteableType: NoteableType, noteableIds: readonly number[]): Promise<Map<number, number>> {
      if (noteableIds.length === 0) return new Map();
      const rows = await userNoteCountRows.all({ noteableType, ids: noteableIds });
      return new Map(rows.map((row) => [row.noteableId, row.count]));
    },
    idsOf: async (where: { noteableType: NoteableType; noteableId: number } | { projectId: number }): Promise<number[]> =>
      (await database.rows(database.from(NoteEntity).select('id').where(where))).map((row) => row.id),
    removeAllFor: (noteableType: NoteableType, noteableId: number) => database.delete(NoteEntity, { noteableType, noteableId }),
    removeAllOfProject: (projectId: number) => database.delete(NoteEntity, { projectId }),
    handOver: (fromUserId: number, toUserId: number) => database.update(NoteEntity, { authorId: fromUserId }, { authorId: toUserId }),
    authoredAny: async (userId: number) => (await database.row(database.from(NoteEntity).select('id').where({ authorId: userId }).limit(1))) !== undefined,
  };
}

export type NoteStore = ReturnType<typeof createNoteStore>;
