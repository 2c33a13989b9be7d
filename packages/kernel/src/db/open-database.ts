import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MikroORM, type EntitySchema } from '@mikro-orm/core';
import sqlite3 from 'sqlite3';
import type { Knex } from '@mikro-orm/knex';
import { createPreparedQueries, type PreparedQuery } from './prepared-queries.js';

export type Dialect = 'sqlite' | 'postgresql';

/** The single ORM instance, and its knex for lean queries and migrations. */
export interface Database {
  readonly orm: MikroORM;
  readonly knex: Knex;
  readonly dialect: Dialect;
  /** A prepared read for hot paths (`?` placeholders on both engines). */
  prepare<Row>(sql: string): PreparedQuery<Row>;
  /** Runs a knex select as a prepared read (for lists whose SQL varies with filters). */
  read<Row>(query: Knex.QueryBuilder): Promise<Row[]>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** `postgres://...`, `:memory:`, or a SQLite file path; default `<dataDir>/forgekit.sqlite`. */
  url?: string;
  dataDir: string;
  entities: EntitySchema<any, any>[];
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
  const orm = await MikroORM.init({ ...common, driver: SqliteDriver, dbName });
  // Two readers: one query can run on each core while the main thread works.
  const readers = memory ? [] : await Promise.all([openReadConnection(dbName), openReadConnection(dbName)]);
  const database = wrap(orm, 'sqlite', readers);
  await database.knex.raw('PRAGMA foreign_keys = ON');
  if (!memory) {
    await database.knex.raw('PRAGMA journal_mode = WAL');
    await database.knex.raw('PRAGMA synchronous = NORMAL');
    await database.knex.raw('PRAGMA busy_timeout = 5000');
  }
  return database;
}

/** A read-only SQLite connection for prepared reads (see createPreparedQueries). */
async function openReadConnection(file: string): Promise<sqlite3.Database> {
  const connection = await new Promise<sqlite3.Database>((resolve, reject) => {
    const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (error) => (error ? reject(error) : resolve(db)));
  });
  connection.configure('busyTimeout', 5000);
  return connection;
}

function wrap(orm: MikroORM, dialect: Dialect, readConnections: sqlite3.Database[] = []): Database {
  const knex = (orm.em as unknown as { getKnex(): Knex }).getKnex();
  const prepared = createPreparedQueries(knex, dialect, readConnections);
  return {
    orm,
    knex,
    dialect,
    prepare: (sql) => prepared.prepare(sql),
    read: (query) => prepared.read(query),
    async close() {
      await prepared.finalize();
      for (const connection of readConnections) await new Promise<void>((resolve) => connection.close(() => resolve()));
      await orm.close(true);
    },
  };
}
