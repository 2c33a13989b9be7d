import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MikroORM, type EntitySchema } from '@mikro-orm/core';
import BetterSqlite from 'better-sqlite3';
import type { Knex } from '@mikro-orm/knex';
import { createCodecs } from './entity-rows.js';
import { createReadEngine } from './entity-reads.js';
import { createEntityWrites } from './entity-writes.js';
import { registerInternals } from './internals.js';
import { createQueryFactory, type QueryFactory } from './query.js';
import { createReads, type Reads } from './reads.js';
import { createWrites, type Writes } from './writes.js';
import type { Dialect } from './dialect.js';
import type { GroupCommitOptions } from './group-commit.js';
import { createPreparedQueries, type SqliteReader, type StatementTimer } from './prepared-queries.js';

export type { Dialect } from './dialect.js';

/**
 * The database as plugins use it: reads are queries in property names (`from`, `table`,
 * `rows`, `row`, `count`, `values`, `prepareRows`), writes are rows in property names
 * (`insert`, `update`, `delete`, `transaction`). Column names appear only in entities and
 * migrations.
 */
export interface Database extends QueryFactory, Reads, Writes {
  readonly dialect: Dialect;
  /** Sees the SQL of every prepared read, which knex's `query` event does not; returns the unsubscribe. */
  observeReads(listener: (sql: string) => void): () => void;
  /** Sees the SQL of every statement, prepared reads and the rest (writes, transactions), as it starts; returns the unsubscribe. */
  observeStatements(listener: (sql: string) => void): () => void;
  /** Sees the SQL and duration of every prepared statement once it finished (knex's events see the rest); returns the unsubscribe. */
  timeReads(listener: StatementTimer): () => void;
  /**
   * A number that changes whenever a write is committed to the database, by this process or
   * another, read without a query (SQLite's `data_version`): what was read under one mark
   * still holds while the mark stays. Undefined where there is no such number (PostgreSQL,
   * in-memory SQLite): there, read again.
   */
  changeMark(): number | undefined;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** `postgres://...`, `:memory:`, or a SQLite file path; default `<dataDir>/forgekit.sqlite`. */
  url?: string;
  dataDir: string;
  entities: EntitySchema<any, any>[];
  /**
   * SQLite's `synchronous` pragma on every connection; default `full` (see the kernel
   * config's `sqliteSynchronous`). With `full`, concurrent write transactions commit
   * together (group-commit.ts).
   */
  sqliteSynchronous?: SqliteSynchronous;
  /** With `full`: commit concurrent write transactions together (default true), with these bounds; false: each commits on its own. */
  groupCommit?: boolean | GroupCommitOptions;
}

export type SqliteSynchronous = 'full' | 'normal';

/** SQLite's settings on every connection of a file database, the reader's and each the pool opens. */
function sqlitePragmas(synchronous: SqliteSynchronous): string[] {
  return ['foreign_keys = ON', 'journal_mode = WAL', `synchronous = ${synchronous.toUpperCase()}`, 'busy_timeout = 5000'];
}

interface SqliteDriverConnection {
  exec(sql: string, callback: (error: Error | null) => void): void;
}

export const isPostgresUrl = (url: string | undefined): url is string => !!url && /^postgres(ql)?:\/\//.test(url);

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const common = {
    entities: options.entities,
    discovery: { warnWhenNoEntities: false },
    ensureDatabase: false,
    allowGlobalContext: false,
    forceUtcTimezone: true,
  } as const;
  if (isPostgresUrl(options.url)) {
    const { PostgreSqlDriver } = await import('@mikro-orm/postgresql');
    const orm = await MikroORM.init({ ...common, driver: PostgreSqlDriver, clientUrl: options.url, pool: { min: 0, max: 10 } });
    return wrap(orm, 'postgresql');
  }
  const { SqliteDriver } = await import('@mikro-orm/sqlite');
  const memory = options.url === ':memory:';
  let dbName = ':memory:';
  if (!memory) {
    dbName = resolve(options.url ?? join(options.dataDir, 'forgekit.sqlite'));
    mkdirSync(resolve(dbName, '..'), { recursive: true });
  }
  const synchronous = options.sqliteSynchronous ?? 'full';
  const pragmas = memory ? ['foreign_keys = ON'] : sqlitePragmas(synchronous);
  // Set as each connection opens, so a connection the pool opens again (after an error) has them too.
  const afterCreate = (connection: SqliteDriverConnection, done: (error: Error | null, connection: unknown) => void) =>
    connection.exec(pragmas.map((pragma) => `PRAGMA ${pragma};`).join(' '), (error) => done(error, connection));
  const orm = await MikroORM.init({ ...common, driver: SqliteDriver, dbName, pool: { afterCreate } });
  const groupCommit = !memory && synchronous === 'full' && options.groupCommit !== false ? options.groupCommit || {} : undefined;
  return wrap(orm, 'sqlite', memory ? undefined : openReader(dbName, synchronous), groupCommit);
}

/**
 * A read-only SQLite connection for prepared reads (see createPreparedQueries). It never
 * commits; it gets the writers' `synchronous` all the same, so that every connection to
 * the file says one thing.
 */
function openReader(file: string, synchronous: SqliteSynchronous): BetterSqlite.Database {
  const reader = new BetterSqlite(file, { readonly: true, fileMustExist: true, timeout: 5000 });
  reader.pragma(`synchronous = ${synchronous.toUpperCase()}`);
  return reader;
}

function wrap(orm: MikroORM, dialect: Dialect, reader?: BetterSqlite.Database, groupCommit?: GroupCommitOptions | true): Database {
  const knex = (orm.em as unknown as { getKnex(): Knex }).getKnex();
  const prepared = createPreparedQueries(knex, dialect, reader as SqliteReader | undefined);
  const codecs = createCodecs(orm);
  const engine = createReadEngine(knex, prepared, codecs);
  const entityWrites = createEntityWrites(orm, dialect, prepared, { groupCommit });
  const propertyColumns = new WeakMap<object, ReadonlyMap<string, string>>();
  // The reader writes nothing, so every commit is another connection's and moves its data_version.
  const dataVersion = reader?.prepare('PRAGMA data_version').pluck();
  const queries = createQueryFactory({
    knex,
    tableOf: engine.tableOf,
    selectList: engine.selectList,
    columnsOf(entity) {
      let columns = propertyColumns.get(entity);
      if (!columns) {
        columns = new Map([...codecs(entity)].map(([column, { property }]) => [property, column]));
        propertyColumns.set(entity, columns);
      }
      return columns;
    },
  });
  const database: Database = {
    ...queries,
    ...createReads(engine),
    ...createWrites(entityWrites),
    dialect,
    observeReads: (listener) => prepared.observe(listener),
    observeStatements(listener) {
      const onQuery = (query: { sql: string }) => listener(query.sql);
      knex.on('query', onQuery);
      const stopReads = prepared.observe(listener);
      return () => {
        knex.off('query', onQuery);
        stopReads();
      };
    },
    timeReads: (listener) => prepared.time(listener),
    changeMark: dataVersion ? () => dataVersion.get() as number : () => undefined,
    async close() {
      await entityWrites.drain();
      await prepared.finalize();
      reader?.close();
      await orm.close(true);
    },
  };
  registerInternals(database, { knex, orm, reader, queuedWrites: entityWrites.queued });
  return database;
}
