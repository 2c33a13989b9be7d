/**
 * The one way to write: rows in property names, by entity (`database.insert(Issue, row)`,
 * `update(Issue, { id }, changes)`, `delete(Issue, { projectId })`), each a single native
 * statement; inside `database.transaction`, name the transaction as `{ tx }`.
 */
import type { EntityData, EntityManager, FilterQuery, InferEntity } from '@mikro-orm/core';
import type { EntityWrites } from './entity-writes.js';
import type { AnyEntity, Query } from './query.js';
import { emOf, transactionOf, type Transaction, type TxOption } from './transaction.js';

/** A row to write, by property. */
export type RowData<E extends AnyEntity> = EntityData<InferEntity<E>>;
/** Which rows a write touches, by property (`{ id }`, `{ projectId, labelId: { $in: ids } }`). */
export type Where<E extends AnyEntity> = FilterQuery<InferEntity<E>>;

/** A guarded insert's conditions: queries in property names. */
export interface Guard {
  /** A query that finds what the new row must not duplicate. */
  unlessExists?: Query<any, any>;
  /** The rows a limit counts, and the limit (0: none). */
  count?: { of: Query<any, any>; below: number };
  /** Names what the guard protects; concurrent guarded inserts with one key take turns. */
  lockKey: string;
}

/** A guard built once with named parameters (`p.id`), for `prepareInsertGuarded`. */
export interface PreparedGuardSpec {
  unlessExists?: Query<any, any>;
  countOf?: Query<any, any>;
  lockKey: string;
}

export interface PreparedGuardedInsert<E extends AnyEntity, P extends string> {
  /** The new id, or null when the guard held the row back; `limit` bounds `countOf` (0: none). */
  run(row: RowData<E>, params: Readonly<Record<P, unknown>>, limit: number): Promise<number | null>;
}

export interface Writes {
  /** Inserts a row; answers its id. */
  insert<E extends AnyEntity>(entity: E, row: RowData<E>, options?: TxOption): Promise<number>;
  insertMany<E extends AnyEntity>(entity: E, rows: readonly RowData<E>[], options?: TxOption): Promise<void>;
  /** Changes the rows `where` finds; answers how many. */
  update<E extends AnyEntity>(entity: E, where: Where<E>, changes: RowData<E>, options?: TxOption): Promise<number>;
  /** Deletes the rows `where` finds; answers how many. */
  delete<E extends AnyEntity>(entity: E, where: Where<E>, options?: TxOption): Promise<number>;
  /** Inserts the row, or updates the one with its unique key. */
  upsert<E extends AnyEntity>(entity: E, row: RowData<E>, options?: TxOption): Promise<void>;
  upsertMany<E extends AnyEntity>(entity: E, rows: readonly RowData<E>[], options?: TxOption): Promise<void>;
  /** Runs `work` in one transaction: all of its writes land, or none. */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * Makes concurrent transactions that name the same key take turns until they end, so a
   * count-then-insert (a plan limit, a next iid) holds across server processes. PostgreSQL
   * takes an advisory lock; SQLite already lets one write transaction run at a time.
   */
  lock(tx: Transaction, key: string): Promise<void>;
  /**
   * Inserts `row` unless `guard.unlessExists` finds a row or `guard.count` already holds
   * `below` rows, as one atomic step. Answers the new id, or null when the guard held it back.
   */
  insertGuarded<E extends AnyEntity>(entity: E, row: RowData<E>, guard: Guard): Promise<number | null>;
  /** `insertGuarded` for a hot path: the guard is built once with named parameters. */
  prepareInsertGuarded<E extends AnyEntity, P extends string>(entity: E, guard: (params: Record<P, never>) => PreparedGuardSpec): PreparedGuardedInsert<E, P>;
}

export function createWrites(writes: EntityWrites): Writes {
  /** One write, in the caller's transaction when it names one; `atomic` when it is a single statement. */
  const write = <T>(options: TxOption | undefined, run: (em: EntityManager) => Promise<T>, atomic = false): Promise<T> => {
    const em = emOf(options?.tx);
    return em ? run(em) : writes.write(run, { atomic });
  };
  return {
    async insert(entity, row, options) {
      return Number(await write(options, (em) => em.insert(entity, row as never), true));
    },
    async insertMany(entity, rows, options) {
      if (rows.length > 0) await write(options, (em) => em.insertMany(entity, [...rows] as never));
    },
    async update(entity, where, changes, options) {
      return write(options, (em) => em.nativeUpdate(entity, where as never, changes as never), true);
    },
    async delete(entity, where, options) {
      return write(options, (em) => em.nativeDelete(entity, where as never), true);
    },
    async upsert(entity, row, options) {
      await write(options, (em) => em.upsert(entity, row as never));
    },
    async upsertMany(entity, rows, options) {
      if (rows.length > 0) await write(options, (em) => em.upsertMany(entity, [...rows] as never));
    },
    transaction: (work) => writes.transaction((manager) => work(transactionOf(manager))),
    async lock(tx, key) {
      await writes.lock(emOf(tx)!, key);
    },
    insertGuarded: (entity, row, guard) =>
      writes.insertGuarded(entity, row as never, {
        unlessExists: guard.unlessExists?.toKnex(),
        count: guard.count && { of: guard.count.of.toKnex(), below: guard.count.below },
        lockKey: guard.lockKey,
      }),
    prepareInsertGuarded(entity, guard) {
      const prepared = writes.prepareInsertGuarded(entity, (params) => {
        const built = guard(params as never);
        return { unlessExists: built.unlessExists?.toKnex(), countOf: built.countOf?.toKnex(), lockKey: built.lockKey };
      });
      return { run: (row, params, limit) => prepared.run(row as never, params, limit) };
    },
  };
}
