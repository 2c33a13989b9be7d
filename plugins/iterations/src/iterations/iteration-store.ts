/** Iterations in the database, by property. */
import type { Database, Transaction } from '@forgekit/kernel';
import { allocateInternalId, releaseInternalIds } from '@forgekit/kernel/orm';
import type { Iteration as IterationShape } from '../contracts.js';
import { IterationEntity } from '../entities/iteration.js';
import { IterationCadenceEntity } from '../entities/iteration-cadence.js';
import { whereFuzzy } from '../search/fuzzy-match.js';
import { todayDate } from './iteration-dates.js';

/** The `internal_ids` counter of a group's iterations. */
const IID_USAGE = 'iterations';

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
  const iterations = () => database.from(IterationEntity);

  function filtered(query: IterationQuery) {
    const q = database.from(IterationEntity, 'i').whereIn('i.groupId', query.groupIds);
    const today = todayDate();
    switch (query.state) {
      case 'upcoming':
        q.where('i.startDate', '>', today);
        break;
      case 'current':
      case 'started':
        q.where('i.startDate', '<=', today).where('i.dueDate', '>=', today);
        break;
      case 'opened':
        q.where('i.dueDate', '>=', today);
        break;
      case 'closed':
        q.where('i.dueDate', '<', today);
        break;
    }
    const search = query.search;
    if (search) {
      const fields = query.in?.length ? query.in : ['title'];
      q.where((w) => {
        if (fields.includes('title')) w.orWhere((title) => whereFuzzy(title, 'i.title', search));
        if (fields.includes('cadence_title')) {
          w.orWhereExists(IterationCadenceEntity, 'c', (cadence) => whereFuzzy(cadence.whereColumn('c.id', 'i.cadenceId'), 'c.title', search));
        }
      });
    }
    if (query.updatedBefore) q.where('i.updatedAt', '<', query.updatedBefore);
    if (query.updatedAfter) q.where('i.updatedAt', '>', query.updatedAfter);
    return q;
  }

  const ofCadence = async (cadenceId: number, tx?: Transaction) =>
    stored(await database.rows(iterations().where('cadenceId', cadenceId).orderBy('startDate'), { tx }));

  /** Recomputes `sequence` (1, 2, … by start date) of a cadence's iterations. */
  async function resequence(tx: Transaction, cadenceId: number) {
    for (const [index, row] of (await ofCadence(cadenceId, tx)).entries()) {
      if (row.sequence !== index + 1) await database.update(IterationEntity, { id: row.id }, { sequence: index + 1 }, { tx });
    }
  }

  /** The next iid of a group, under the group's lock (taken by the caller's transaction). */
  function nextIid(tx: Transaction, groupId: number) {
    return allocateInternalId(database, tx, {
      usage: IID_USAGE,
      scopeId: groupId,
      what: 'Iteration',
      highest: database.table(IterationEntity).where('groupId', groupId).max({ last: 'iid' }),
    });
  }

  const lockGroup = (tx: Transaction, groupId: number) => database.lock(tx, `iterations:group:${groupId}`);
  const byIds = database.prepareRows((p) => iterations().whereIn('id', p.ids).orderBy('id'));

  return {
    list(query: IterationQuery, limit: number, offset: number): Promise<StoredIteration[]> {
      // GitLab's order: due date, title (untitled last, as PostgreSQL sorts nulls), id.
      const q = filtered(query).orderBy('i.dueDate').orderBy('i.title', 'asc', { nulls: 'last' }).orderBy('i.id').limit(limit).offset(offset);
      return database.rows(q).then(stored);
    },
    count: (query: IterationQuery) => database.count(filtered(query)),

    byId: async (id: number) => (await database.row(iterations().where('id', id))) as StoredIteration | undefined,
    byIds: async (ids: readonly number[]) => (ids.length === 0 ? [] : stored(await byIds.all({ ids: [...ids] }))),
    ofCadence,
    /** Ids of the groups that have iterations (one row read per group). */
    async groupsWithIterations(): Promise<number[]> {
      const firstOfEach = database.table(IterationEntity).min({ id: 'id' }).groupBy('groupId');
      return (await database.rows(iterations().whereIn('id', firstOfEach))).map((row) => row.groupId);
    },

    /** An iteration of the cadence whose dates overlap [start, due], other than `exceptId`. */
    overlaps: async (cadenceId: number, startDate: string, dueDate: string, exceptId = 0, tx?: Transaction): Promise<boolean> =>
      (await database.count(
        iterations().where('cadenceId', cadenceId).whereNot('id', exceptId).where('startDate', '<=', dueDate).where('dueDate', '>=', startDate),
        { tx },
      )) > 0,
    titleTaken: async (cadenceId: number, title: string, exceptId = 0, tx?: Transaction) =>
      (await database.count(iterations().where({ cadenceId, title }).whereNot('id', exceptId), { tx })) > 0,

    /**
     * Inserts iterations into a cadence in one transaction, under the group's lock, with
     * the next iids; `build` runs inside and may refuse (throw). Sequences are recomputed.
     */
    async insert(groupId: number, cadenceId: number, build: (tx: Transaction) => Promise<NewIteration[]>): Promise<StoredIteration[]> {
      return database.transaction(async (tx) => {
        await lockGroup(tx, groupId);
        const wanted = await build(tx);
        if (wanted.length === 0) return [];
        let iid = await nextIid(tx, groupId);
        const now = new Date();
        const today = todayDate(now);
        const ids: number[] = [];
        for (const item of wanted) {
          // One created already past is closed from the start: no roll-over for it.
          const closedAt = item.dueDate < today ? now : null;
          const row = { ...item, groupId, cadenceId, iid: iid++, sequence: 0, closedAt, createdAt: now, updatedAt: now };
          ids.push(await database.insert(IterationEntity, row, { tx }));
        }
        await resequence(tx, cadenceId);
        return stored(await database.rows(iterations().whereIn('id', ids).orderBy('startDate'), { tx }));
      });
    },

    /** Updates an iteration; `check` runs inside the transaction first. */
    async update(previous: StoredIteration, changes: Partial<NewIteration>, check: (tx: Transaction) => Promise<void>): Promise<StoredIteration> {
      return database.transaction(async (tx) => {
        await lockGroup(tx, previous.groupId);
        await check(tx);
        const updatedAt = new Date();
        const closing = changes.dueDate === undefined ? {} : { closedAt: changes.dueDate < todayDate(updatedAt) ? (previous.closedAt ?? updatedAt) : null };
        await database.update(IterationEntity, { id: previous.id }, { ...changes, ...closing, updatedAt }, { tx });
        if (changes.startDate !== undefined) await resequence(tx, previous.cadenceId);
        return (await database.row(iterations().where('id', previous.id), { tx })) as StoredIteration;
      });
    },

    async remove(iteration: StoredIteration) {
      await database.transaction(async (tx) => {
        await lockGroup(tx, iteration.groupId);
        await database.delete(IterationEntity, { id: iteration.id }, { tx });
        await resequence(tx, iteration.cadenceId);
      });
    },

    /** Moves iterations to new dates (`moves` in the caller's transaction), then renumbers the cadence. */
    async redate(cadenceId: number, moves: readonly { id: number; startDate: string; dueDate: string }[], tx: Transaction) {
      const updatedAt = new Date();
      for (const move of moves) {
        await database.update(IterationEntity, { id: move.id }, { startDate: move.startDate, dueDate: move.dueDate, updatedAt }, { tx });
      }
      await resequence(tx, cadenceId);
    },

    /** Iterations whose due date has passed and that the background job has not closed yet, oldest first. */
    dueToClose: async (today: string) =>
      stored(await database.rows(iterations().whereNull('closedAt').where('dueDate', '<', today).orderBy('dueDate').orderBy('id'))),
    /** Stamps an iteration closed; false when another run did it first. */
    markClosed: async (id: number) => (await database.update(IterationEntity, { id, closedAt: null }, { closedAt: new Date() })) > 0,
    /** GitLab's `next_open_iteration`: the cadence's first iteration starting after `date` that is not closed. */
    nextOpen: async (cadenceId: number, date: string, today: string) =>
      (await database.row(iterations().where('cadenceId', cadenceId).where('startDate', '>', date).where('dueDate', '>=', today).orderBy('startDate'))) as
        | StoredIteration
        | undefined,

    removeOfCadence: (cadenceId: number, tx: Transaction) => database.delete(IterationEntity, { cadenceId }, { tx }),
    async removeOfGroup(groupId: number) {
      await releaseInternalIds(database, IID_USAGE, groupId);
      await database.delete(IterationEntity, { groupId });
    },
    idsOfGroup: async (groupId: number) => (await database.rows(iterations().where('groupId', groupId))).map((row) => row.id),
    lockGroup,
  };
}

export type IterationStore = ReturnType<typeof createIterationStore>;
