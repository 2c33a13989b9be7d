/** Iterations in the database: reads through the entity, writes through the EntityManager. */
import type { Database } from '@forgekit/kernel';
import { nextInternalId, type EntityManager, type Knex } from '@forgekit/kernel/orm';
import { IterationCadence } from '../entities/iteration-cadence.js';
import type { Iteration as IterationShape } from '../contracts.js';
import { Iteration } from '../entities/iteration.js';
import { whereFuzzy } from '../search/fuzzy-match.js';
import { todayDate } from './iteration-dates.js';

/** A stored iteration: the entity's row, whose nullable columns read back as null. */
export type StoredIteration = Omit<IterationShape, 'webUrl'> & { closedAt?: Date | null };
export type NewIteration = Pick<StoredIteration, 'title' | 'description' | 'startDate' | 'dueDate'>;
const stored = (rows: object[]) => rows as StoredIteration[];
export type SearchField = 'title' | 'cadence_title';
export type StateFilter = 'opened' | 'upcoming' | 'current' | 'started' | 'closed' | 'all';

export interface IterationQuery {
  groupIds: readonly number[];
  state?: StateFilter;
  search?: string;
  in?: readonly SearchField[];
  updatedBefore?: Date;
  updatedAfter?: Date;
}

export function createIterationStore(database: Database) {
  const { knex } = database.legacy;

  function filtered(query: IterationQuery): Knex.QueryBuilder {
    const q = database.legacy.from(Iteration, 'i').whereIn('i.group_id', [...query.groupIds]);
    const today = todayDate();
    switch (query.state) {
      case 'upcoming':
        q.where('i.start_date', '>', today);
        break;
      case 'current':
      case 'started':
        q.where('i.start_date', '<=', today).where('i.due_date', '>=', today);
        break;
      case 'opened':
        q.where('i.due_date', '>=', today);
        break;
      case 'closed':
        q.where('i.due_date', '<', today);
        break;
    }
    const search = query.search;
    if (search) {
      const fields = query.in?.length ? query.in : ['title'];
      q.where((w) => {
        if (fields.includes('title')) w.orWhere((title) => whereFuzzy(title, 'i.title', search));
        if (fields.includes('cadence_title')) {
          const cadences = database.legacy.table(IterationCadence).select(knex.raw('1')).whereRaw('iteration_cadences.id = i.cadence_id');
          w.orWhereExists(whereFuzzy(cadences, 'iteration_cadences.title', search));
        }
      });
    }
    if (query.updatedBefore) q.where('i.updated_at', '<', query.updatedBefore);
    if (query.updatedAfter) q.where('i.updated_at', '>', query.updatedAfter);
    return q;
  }

  /** Recomputes `sequence` (1, 2, … by start date) of a cadence's iterations. */
  async function resequence(em: EntityManager, cadenceId: number) {
    const rows = await database.legacy.rows(Iteration, database.legacy.from(Iteration).where({ cadence_id: cadenceId }).orderBy('start_date'), { em });
    for (const [index, row] of rows.entries()) {
      if (row.sequence !== index + 1) await em.nativeUpdate(Iteration, { id: row.id }, { sequence: index + 1 });
    }
  }

  /** The next iid of a group, under the group's lock (taken by the caller's transaction). */
  async function nextIid(em: EntityManager, groupId: number) {
    const { max } = await database.legacy.totals<'max'>(database.legacy.table(Iteration).where({ group_id: groupId }).max({ max: 'iid' }), { em });
    return nextInternalId(max, 'Iteration');
  }

  const lockGroup = (em: EntityManager, groupId: number) => database.legacy.lock(em, `iterations:group:${groupId}`);

  return {
    list(query: IterationQuery, limit: number, offset: number): Promise<StoredIteration[]> {
      // GitLab's order: due date, title (untitled last, as PostgreSQL sorts nulls), id.
      const q = filtered(query)
        .orderBy('i.due_date', 'asc')
        .orderByRaw('case when i.title is null then 1 else 0 end')
        .orderBy('i.title', 'asc')
        .orderBy('i.id', 'asc')
        .limit(limit)
        .offset(offset);
      return database.legacy.rows(Iteration, q).then(stored);
    },
    count: (query: IterationQuery) => database.legacy.count(filtered(query)),

    byId: async (id: number) => (await database.legacy.row(Iteration, database.legacy.from(Iteration).where({ id }))) as StoredIteration | undefined,
    byIds: async (ids: readonly number[]) =>
      ids.length === 0
        ? []
        : stored(
            await database.legacy.rows(
              Iteration,
              database.legacy
                .from(Iteration)
                .whereIn('id', [...ids])
                .orderBy('id'),
            ),
          ),
    ofCadence: async (cadenceId: number, em?: EntityManager) =>
      stored(await database.legacy.rows(Iteration, database.legacy.from(Iteration).where({ cadence_id: cadenceId }).orderBy('start_date'), { em })),
    /** Ids of the groups that have iterations (one row read per group). */
    async groupsWithIterations(): Promise<number[]> {
      const firstOfEach = database.legacy.table(Iteration).min('id').groupBy('group_id');
      return (await database.legacy.rows(Iteration, database.legacy.from(Iteration).whereIn('id', firstOfEach))).map((row) => row.groupId);
    },

    /** An iteration of the cadence whose dates overlap [start, due], other than `exceptId`. */
    overlaps: async (cadenceId: number, startDate: string, dueDate: string, exceptId = 0, em?: EntityManager): Promise<boolean> =>
      (await database.legacy.count(
        database.legacy
          .from(Iteration)
          .where({ cadence_id: cadenceId })
          .whereNot('id', exceptId)
          .where('start_date', '<=', dueDate)
          .where('due_date', '>=', startDate),
        { em },
      )) > 0,
    titleTaken: async (cadenceId: number, title: string, exceptId = 0, em?: EntityManager) =>
      (await database.legacy.count(database.legacy.from(Iteration).where({ cadence_id: cadenceId, title }).whereNot('id', exceptId), { em })) > 0,

    /**
     * Inserts iterations into a cadence in one transaction, under the group's lock, with
     * the next iids; `check` runs inside and may refuse (throw). Sequences are recomputed.
     */
    async insert(groupId: number, cadenceId: number, build: (em: EntityManager) => Promise<NewIteration[]>): Promise<StoredIteration[]> {
      return database.legacy.transaction(async (em) => {
        await lockGroup(em, groupId);
        const wanted = await build(em);
        if (wanted.length === 0) return [];
        let iid = await nextIid(em, groupId);
        const now = new Date();
        const today = todayDate(now);
        const ids: number[] = [];
        for (const item of wanted) {
          // One created already past is closed from the start: no roll-over for it.
          const closedAt = item.dueDate < today ? now : null;
          const row = { ...item, groupId, cadenceId, iid: iid++, sequence: 0, closedAt, createdAt: now, updatedAt: now };
          ids.push(await em.insert(Iteration, row));
        }
        await resequence(em, cadenceId);
        return stored(await database.legacy.rows(Iteration, database.legacy.from(Iteration).whereIn('id', ids).orderBy('start_date'), { em }));
      });
    },

    /** Updates an iteration; `check` runs inside the transaction first. */
    async update(previous: StoredIteration, changes: Partial<NewIteration>, check: (em: EntityManager) => Promise<void>): Promise<StoredIteration> {
      return database.legacy.transaction(async (em) => {
        await lockGroup(em, previous.groupId);
        await check(em);
        const updatedAt = new Date();
        const closing = changes.dueDate === undefined ? {} : { closedAt: changes.dueDate < todayDate(updatedAt) ? (previous.closedAt ?? updatedAt) : null };
        await em.nativeUpdate(Iteration, { id: previous.id }, { ...changes, ...closing, updatedAt });
        if (changes.startDate !== undefined) await resequence(em, previous.cadenceId);
        return (await database.legacy.row(Iteration, database.legacy.from(Iteration).where({ id: previous.id }), { em })) as StoredIteration;
      });
    },

    async remove(iteration: StoredIteration) {
      await database.legacy.transaction(async (em) => {
        await lockGroup(em, iteration.groupId);
        await em.nativeDelete(Iteration, { id: iteration.id });
        await resequence(em, iteration.cadenceId);
      });
    },

    /** Moves iterations to new dates (`moves` in the caller's transaction), then renumbers the cadence. */
    async redate(cadenceId: number, moves: readonly { id: number; startDate: string; dueDate: string }[], em: EntityManager) {
      const updatedAt = new Date();
      for (const move of moves) await em.nativeUpdate(Iteration, { id: move.id }, { startDate: move.startDate, dueDate: move.dueDate, updatedAt });
      await resequence(em, cadenceId);
    },

    /** Iterations whose due date has passed and that the background job has not closed yet, oldest first. */
    dueToClose: async (today: string) =>
      stored(
        await database.legacy.rows(Iteration, database.legacy.from(Iteration).whereNull('closed_at').where('due_date', '<', today).orderBy(['due_date', 'id'])),
      ),
    /** Stamps an iteration closed; false when another run did it first. */
    markClosed: async (id: number) => (await database.legacy.em().nativeUpdate(Iteration, { id, closedAt: null }, { closedAt: new Date() })) > 0,
    /** GitLab's `next_open_iteration`: the cadence's first iteration starting after `date` that is not closed. */
    nextOpen: async (cadenceId: number, date: string, today: string) =>
      (await database.legacy.row(
        Iteration,
        database.legacy.from(Iteration).where({ cadence_id: cadenceId }).where('start_date', '>', date).where('due_date', '>=', today).orderBy('start_date'),
      )) as StoredIteration | undefined,

    removeOfCadence: (cadenceId: number, em: EntityManager) => em.nativeDelete(Iteration, { cadenceId }),
    removeOfGroup: (groupId: number) => database.legacy.em().nativeDelete(Iteration, { groupId }),
    idsOfGroup: async (groupId: number) =>
      (await database.legacy.rows(Iteration, database.legacy.from(Iteration).where({ group_id: groupId }))).map((row) => row.id),
    lockGroup,
  };
}

export type IterationStore = ReturnType<typeof createIterationStore>;
