/** Notes in the database, read and written by property. */
import { TOTAL_COLUMN, type Database, type Transaction } from '@forgekit/kernel';
import type { Query } from '@forgekit/kernel/orm';
import type { NoteableType } from '../contracts.js';
import { NoteEntity, type NoteRow } from '../entities/note.js';

type NoteQuery = Query<Record<'', typeof NoteEntity>, ''>;

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
const ORDERS = ['created_at', 'updated_at'] as const;
const SORTS = ['asc', 'desc'] as const;
const ACTIVITIES = ['all_notes', 'only_comments', 'only_activity'] as const;

/** What a page read is compiled for: its order and its filter. */
type PageShape = Pick<NoteListQuery, 'orderBy' | 'sort' | 'withInternal' | 'activity'>;
const pageKey = (shape: PageShape) => `${shape.orderBy}:${shape.sort}:${shape.withInternal}:${shape.activity}`;

/** A listed note: its row and the total of the list it belongs to (see `totalFromRows`). */
export type ListedNote = NoteRow & { [TOTAL_COLUMN]?: unknown };

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
  /** The notes of a scope that an activity filter keeps: conditions only where they narrow, so an unfiltered count reads the index alone. */
  const narrowed = (query: NoteQuery, noteable: Pick<NoteScope, 'noteableType' | 'noteableId'>, withInternal: boolean, activity: ActivityFilter) => {
    query.where({ noteableType: noteable.noteableType, noteableId: noteable.noteableId });
    if (!withInternal) query.where('internal', false);
    if (activity === 'only_comments') query.where('system', false);
    if (activity === 'only_activity') query.where('system', true);
    return query;
  };
  const ofNoteable = (scope: NoteScope, activity: ActivityFilter = 'all_notes') => narrowed(database.from(NoteEntity), scope, scope.withInternal, activity);

  /** A page read for one order and filter, compiled when first used; each row carries the list's total. */
  const pageRead = ({ orderBy, sort, withInternal, activity }: PageShape) =>
    database.prepareRows((p) => {
      const noteable = { noteableType: p.noteableType, noteableId: p.noteableId };
      return narrowed(database.from(NoteEntity), noteable, withInternal, activity)
        .selectQuery(TOTAL_COLUMN, narrowed(database.table(NoteEntity).count(), noteable, withInternal, activity))
        .orderBy(ORDER_PROPERTIES[orderBy], sort)
        .orderBy('id', sort)
        .limit(p.limit)
        .offset(p.offset);
    });
  const pageReads = new Map<string, ReturnType<typeof pageRead>>();
  for (const orderBy of ORDERS)
    for (const sort of SORTS)
      for (const withInternal of [false, true])
        for (const activity of ACTIVITIES)
          pageReads.set(pageKey({ orderBy, sort, withInternal, activity }), pageRead({ orderBy, sort, withInternal, activity }));

  return {
    insert: (row: NewNote, tx?: Transaction): Promise<number> => database.insert(NoteEntity, row, { tx }),
    /** A page of the noteable's notes; each row also carries the list's total as TOTAL_COLUMN, so a page needs no second statement. */
    list(query: NoteListQuery): Promise<ListedNote[]> {
      const { noteableType, noteableId, limit, offset } = query;
      return pageReads.get(pageKey(query))!.all({ noteableType, noteableId, limit, offset }) as Promise<ListedNote[]>;
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
    /** Writes the changes and answers the row as it now is: the ORM raised its version in the same statement. */
    async update(note: NoteRow, changes: NoteChanges): Promise<NoteRow> {
      await database.update(NoteEntity, { id: note.id }, changes);
      return { ...note, ...changes, lockVersion: note.lockVersion + 1 };
    },
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
