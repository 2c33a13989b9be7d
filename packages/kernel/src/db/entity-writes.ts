/**
 * The one way to write: MikroORM's EntityManager (`insert`, `nativeUpdate`,
 * `nativeDelete`, `upsert`), in a transaction where a request writes more than one row.
 */
import { UniqueConstraintViolationException, type EntityManager, type EntityProperty, type EntitySchema, type MikroORM } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/knex';
import type { Dialect } from './dialect.js';
import { createGroupCommit, type GroupCommitOptions, type GroupConnection } from './group-commit.js';
import { compileNamed, type NamedStatement, quoteIdentifier } from './named-params.js';
import type { PreparedQueries } from './prepared-queries.js';
import { countRows, rowsOnly } from './rows-only.js';

export interface EntityWrites {
  /**
   * Runs one native write (`insert`, `nativeUpdate`, `nativeDelete`, `upsert`) outside a
   * transaction of the caller's; `atomic` when it is one statement.
   */
  write<T>(run: (em: EntityManager) => Promise<T>, options?: { atomic?: boolean }): Promise<T>;
  /** Runs `work` in one transaction: all of its writes land, or none. */
  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T>;
  /**
   * Makes concurrent transactions that name the same key take turns until they end, so a
   * count-then-insert (a plan limit, a next iid) holds across server processes. PostgreSQL
   * takes an advisory lock; SQLite already lets one write transaction run at a time.
   */
  lock(em: EntityManager, key: string): Promise<void>;
  /**
   * Inserts `row` unless `guard.unlessExists` finds a row or `guard.count` already holds
   * `below` rows, as one atomic step: a single statement on SQLite (which runs one write
   * at a time), a transaction under `guard.lockKey` on PostgreSQL. Answers the new id, or
   * null when the guard held the row back.
   */
  insertGuarded<Row extends object>(entity: EntitySchema<Row, any>, row: Partial<Row>, guard: InsertGuard): Promise<number | null>;
  /**
   * `insertGuarded` for a hot path: the guard is built once with named parameters (as with
   * `prepareRows`) and `run` fills them; `limit` is the `count` guard's bound (0: none).
   */
  prepareInsertGuarded<Row extends object, P extends string>(
    entity: EntitySchema<Row, any>,
    guard: (params: Record<P, never>) => PreparedGuard,
  ): PreparedInsert<Row, P>;
  /** Writes waiting for their turn in a group commit (0 without one). */
  queued(): number;
  /** Waits for the writes queued for a group commit. */
  drain(): Promise<void>;
}

export interface EntityWritesOptions {
  /** Commit concurrent write transactions together, with these bounds (SQLite with `synchronous = FULL`; see group-commit.ts). */
  groupCommit?: GroupCommitOptions | true;
}

export interface PreparedGuard {
  unlessExists?: Knex.QueryBuilder;
  /** The rows a limit counts. */
  countOf?: Knex.QueryBuilder;
  lockKey: string;
}

export interface PreparedInsert<Row, P extends string> {
  run(row: Partial<Row>, params: Readonly<Record<P, unknown>>, limit: number): Promise<number | null>;
}

export interface InsertGuard {
  /** A query that finds what the new row must not duplicate. */
  unlessExists?: Knex.QueryBuilder;
  /** A query of the rows a limit counts, and the limit (0: none). */
  count?: { of: Knex.QueryBuilder; below: number };
  /** Names what the guard protects; concurrent guarded inserts with one key take turns. */
  lockKey: string;
}

/** Whether a write failed on a unique index (MikroORM's typed exception, on both engines). */
export const isUniqueViolation = (error: unknown): error is UniqueConstraintViolationException => error instanceof UniqueConstraintViolationException;

/** Runs `write`; a unique-index violation becomes what `onViolation` returns or throws (GitLab's 409, a validation error). */
export async function unlessTaken<T, F>(write: Promise<T>, onViolation: () => F): Promise<T | F> {
  try {
    return await write;
  } catch (error) {
    if (isUniqueViolation(error)) return onViolation();
    throw error;
  }
}

/** The named parameter a prepared guard's limit takes. */
const LIMIT_PARAM = 'guardLimit';

export function createEntityWrites(orm: MikroORM, dialect: Dialect, prepared: PreparedQueries, options: EntityWritesOptions = {}): EntityWrites {
  // Single writes are native statements (`insert`, `nativeUpdate`, `nativeDelete`), which
  // keep no identity map: one EntityManager serves them all. A transaction runs in a fork
  // of its own.
  const writer = orm.em.fork();
  const knex = (writer as unknown as { getKnex(): Knex }).getKnex();
  const connection = writer.getConnection('write');
  const platform = orm.em.getPlatform();

  /**
   * Runs `work` in a transaction on a fork of its own. Written out rather than through
   * `em.transactional`, which (with the flush it ends on) runs in an AsyncLocalStorage: on
   * Node 20 and 22 the first such run turns on async hooks for every promise of the
   * process, which cost every request about 6% in the bench. Writes here are native and
   * the writer's forks look up no context, so nothing needs that storage.
   */
  async function ownTransaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    const em = writer.fork();
    const trx = await connection.begin();
    em.setTransactionContext(trx);
    try {
      const result = await work(em);
      await connection.commit(trx);
      return result;
    } catch (error) {
      await connection.rollback(trx);
      throw error;
    } finally {
      em.resetTransactionContext();
    }
  }

  const group = options.groupCommit
    ? createGroupCommit(connection as unknown as GroupConnection, options.groupCommit === true ? {} : options.groupCommit)
    : null;

  /** `work` on a fork of the writer inside the group's transaction. */
  async function inGroup<T>(trx: Knex.Transaction, work: (em: EntityManager) => Promise<T>): Promise<T> {
    const em = writer.fork();
    em.setTransactionContext(trx);
    try {
      return await work(em);
    } finally {
      em.resetTransactionContext();
    }
  }

  const transaction: <T>(work: (em: EntityManager) => Promise<T>) => Promise<T> = group ? (work) => group.run((trx) => inGroup(trx!, work)) : ownTransaction;

  /** A single write: with group commit, one unit of a group (alone, its own autocommit). */
  const write: EntityWrites['write'] = group
    ? (run, writeOptions) => group.run((trx) => (trx ? inGroup(trx, run) : run(writer)), { solo: true, atomic: writeOptions?.atomic })
    : (run) => run(writer);

  async function lock(em: EntityManager, key: string) {
    if (dialect !== 'postgresql') return;
    const trx = em.getTransactionContext<Knex.Transaction>();
    if (!trx) throw new Error('lock() needs a transaction');
    await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [key]);
  }

  /** The row's columns and their values as the database keeps them, from the entity's metadata. */
  function columnsOf(entity: EntitySchema<any, any>, row: Record<string, unknown>) {
    const meta = orm.getMetadata().get(entity.meta.className);
    const columns: string[] = [];
    const values: unknown[] = [];
    for (const [name, value] of Object.entries(row)) {
      const property = meta.properties[name] as EntityProperty | undefined;
      if (!property || value === undefined) continue;
      columns.push(property.fieldNames[0]!);
      values.push(property.customType ? property.customType.convertToDatabaseValue(value, platform, { mode: 'query' }) : value);
    }
    return { table: meta.tableName, columns, values };
  }

  /** The guard's conditions as one `where …` clause; a `limit` of 0 lets any count through. */
  function guardClause(unlessExists: Knex.QueryBuilder | undefined, countOf: Knex.QueryBuilder | undefined, limit: unknown): Knex.Raw {
    const conditions: Knex.Raw[] = [];
    if (unlessExists) conditions.push(knex.raw('not exists ?', [rowsOnly(knex, unlessExists)]));
    if (countOf)
      conditions.push(knex.raw('(? = 0 or (select count(*) from ? as counted) < ?)', [limit as Knex.Value, rowsOnly(knex, countOf), limit as Knex.Value]));
    return conditions.length > 0 ? knex.raw(`where ${conditions.map(() => '?').join(' and ')}`, conditions) : knex.raw('');
  }

  /** `insert into t (columns) select <values> <guard>`: SQLite runs it under its write lock, reads included, so it is atomic. */
  function guardedInsertSql(table: string, columns: readonly string[], clause: string) {
    return `insert into ${quoteIdentifier(table)} (${columns.map(quoteIdentifier).join(', ')}) select ${columns.map(() => '?').join(', ')} ${clause}`;
  }

  /**
   * Runs as a statement prepared once per connection, with bound values: MikroORM's
   * `execute` would inline them into a new SQL text, and knex's `raw` has SQLite parse the
   * same text again on every insert.
   */
  async function runSqliteInsert(sql: string, bindings: readonly unknown[]) {
    const statement = prepared.writeStatement(`${sql} returning "id"`);
    const { rows } = group ? await group.run((trx) => statement.raw(bindings, trx ?? undefined), { solo: true, atomic: true }) : await statement.raw(bindings);
    return rows.length > 0 ? Number(rows[0]![0]) : null;
  }

  async function insertUnderLock(entity: EntitySchema<any, any>, row: object, guard: InsertGuard) {
    return transaction(async (em) => {
      await lock(em, guard.lockKey);
      const trx = em.getTransactionContext<Knex.Transaction>()!;
      if (guard.unlessExists && (await rowsOnly(knex, guard.unlessExists).transacting(trx).first())) return null;
      if (guard.count && guard.count.below > 0) {
        const [counted] = (await countRows(knex, guard.count.of).transacting(trx)) as { n: unknown }[];
        if (Number(counted?.n) >= guard.count.below) return null;
      }
      return Number(await em.insert(entity, row as never));
    });
  }

  return {
    write,
    transaction,
    lock,
    async insertGuarded(entity, row, guard) {
      if (dialect === 'postgresql') return insertUnderLock(entity, row, guard);
      const { table, columns, values } = columnsOf(entity, row as Record<string, unknown>);
      const countOf = guard.count && guard.count.below > 0 ? guard.count.of : undefined;
      const clause = guardClause(guard.unlessExists, countOf, guard.count?.below ?? 0).toSQL();
      return runSqliteInsert(guardedInsertSql(table, columns, clause.sql), [...values, ...clause.bindings]);
    },
    prepareInsertGuarded(entity, guard) {
      if (dialect === 'postgresql') {
        return {
          run(row, params, limit) {
            const built = guard(params as never);
            return insertUnderLock(entity, row, {
              unlessExists: built.unlessExists,
              count: built.countOf && { of: built.countOf, below: limit },
              lockKey: built.lockKey,
            });
          },
        };
      }
      // The guard compiles once; the insert's SQL once per set of columns a row fills.
      const clause: NamedStatement = compileNamed((params) => {
        const built = guard(params as never);
        return guardClause(built.unlessExists, built.countOf, params[LIMIT_PARAM]);
      });
      const bySignature = new Map<string, string>();
      return {
        run(row, params, limit) {
          const { table, columns, values } = columnsOf(entity, row as Record<string, unknown>);
          const signature = columns.join(',');
          let sql = bySignature.get(signature);
          if (sql === undefined) bySignature.set(signature, (sql = guardedInsertSql(table, columns, clause.sql)));
          return runSqliteInsert(sql, [...values, ...clause.bindings({ ...params, [LIMIT_PARAM]: limit })]);
        },
      };
    },
    queued: () => group?.queued() ?? 0,
    drain: async () => group?.drain(),
  };
}
