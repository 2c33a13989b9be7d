import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MikroORM, type EntitySchema } from '@mikro-orm/core';
import BetterSqlite from 'better-sqlite3';
import type { Knex } from '@mikro-orm/knex';
import { createCodecs } from './entity-rows.js';
import { createEntityReads, type EntityReads } from './entity-reads.js';
import { createEntityWrites, type EntityWrites } from './entity-writes.js';
import type { Dialect } from './dialect.js';
import { createPreparedQueries, type SqliteReader, type StatementTimer } from './prepared-queries.js';

export type { Dialect } from './dialect.js';

/**
 * The single ORM instance. Reads: a knex query over an entity (`from`, `rows`, `row`,
 * `count`, `prepareRows`), answered as the entity's properties. Writes: the EntityManager
 * (`em`, `transaction`).
 */
export interface Database extends EntityReads, EntityWrites {
  readonly orm: MikroORM;
  readonly knex: Knex;
  readonly dialect: Dialect;
  /** Sees the SQL of every prepared read, which knex's `query` event does not; returns the unsubscribe. */
  observeReads(listener: (sql: string) => void): () => void;
  /** Sees the SQL and duration of every prepared statement once it finished (knex's events see the rest); returns the unsubscribe. */
  timeReads(listener: StatementTimer): () => void;
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
  const database = wrap(orm, 'sqlite', memory ? undefined : openReader(dbName));
  await database.knex.raw('PRAGMA foreign_keys = ON');
  if (!memory) {
    await database.knex.raw('PRAGMA journal_mode = WAL');
    await database.knex.raw('PRAGMA synchronous = NORMAL');
    await database.knex.raw('PRAGMA busy_timeout = 5000');
  }
  return database;
}

/** A read-only SQLite connection for prepared reads (see createPreparedQueries). */
function openReader(file: string): BetterSqlite.Database {
  return new BetterSqlite(file, { readonly: true, fileMustExist: true, timeout: 5000 });
}

function wrap(orm: MikroORM, dialect: Dialect, reader?: BetterSqlite.Database): Database {
  const knex = (orm.em as unknown as { getKnex(): Knex }).getKnex();
  const prepared = createPreparedQueries(knex, dialect, reader as SqliteReader | undefined);
  return {
    ...createEntityReads(knex, prepared, createCodecs(orm)),
    ...createEntityWrites(orm, dialect, prepared),
    orm,
    knex,
    dialect,
    observeReads: (listener) => prepared.observe(listener),
    timeReads: (listener) => prepared.time(listener),
    async close() {
      await prepared.finalize();
      reader?.close();
      await orm.close(true);
    },
  };
}
