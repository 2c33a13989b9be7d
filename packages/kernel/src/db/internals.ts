/**
 * What the kernel itself uses of a database beside the plugins' property-named API: knex
 * for migrations, the secrets check and PostgreSQL's rate-limit table, and the ORM for the
 * schema check. Not exported from the package: plugins never see either.
 */
import type { MikroORM } from '@mikro-orm/core';
import type BetterSqlite from 'better-sqlite3';
import type { Knex } from '@mikro-orm/knex';
import type { Database } from './open-database.js';

export interface DatabaseInternals {
  readonly knex: Knex;
  readonly orm: MikroORM;
  /** The read-only SQLite connection of a file database. */
  readonly reader?: BetterSqlite.Database;
  /** Writes waiting for their turn in a group commit (SQLite with `synchronous = FULL`). */
  queuedWrites(): number;
}

const internals = new WeakMap<Database, DatabaseInternals>();

export function registerInternals(database: Database, parts: DatabaseInternals) {
  internals.set(database, parts);
}

export function internalsOf(database: Database): DatabaseInternals {
  const parts = internals.get(database);
  if (!parts) throw new Error('Not a database the kernel opened');
  return parts;
}
