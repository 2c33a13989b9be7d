/**
 * Every entity read runs as a prepared statement, compiled once per SQL text and kept per
 * connection (see entity-reads.ts, which builds the SQL). Placeholders are `?`; they become
 * `$1, $2, …` on PostgreSQL.
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Knex } from '@mikro-orm/knex';
import type { Dialect } from './dialect.js';

/** A statement's result as its column names and one array of values per row. */
export interface RawRows {
  columns: readonly string[];
  rows: unknown[][];
}

/** A statement prepared once, answering arrays of values: the fastest shape to build other objects from. */
export interface PreparedStatement {
  readonly sql: string;
  /** Runs the statement; `trx`: on that transaction's connection (statements that write). */
  raw(params?: readonly unknown[], trx?: Knex.Transaction): Promise<RawRows>;
}

interface SqliteStatement {
  all(params: readonly unknown[], callback: (error: Error | null, rows: unknown[]) => void): void;
  finalize(callback?: () => void): void;
}
interface SqliteConnection {
  prepare(sql: string, callback: (error: Error | null) => void): SqliteStatement;
}
interface PgConnection {
  query(config: { name: string; text: string; values: readonly unknown[]; rowMode?: 'array' }): Promise<{ rows: unknown[]; fields: { name: string }[] }>;
}
interface KnexClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<void> | void;
}

/** A synchronous read-only SQLite connection (better-sqlite3). */
export interface SqliteReader {
  prepare(sql: string): ReaderStatement;
}
interface ReaderStatement {
  raw(toggle: boolean): ReaderStatement;
  columns(): { name: string }[];
  all(...params: unknown[]): unknown[];
}

/** Values as the writer's driver stores them: booleans as 0/1, dates as epoch milliseconds. */
function readerParam(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.getTime();
  return value === undefined ? null : value;
}

const INTEGER_RANGE = 2_147_483_647;

/**
 * A number no integer column can hold (an id of 10^40, say) matches no row, as it does
 * on SQLite; PostgreSQL answers the comparison with an error instead
 * (`numeric_value_out_of_range`, or `invalid_text_representation` for `1e+40`).
 */
function outOfRangeLookup(error: unknown, params: readonly unknown[]): boolean {
  const code = (error as { code?: string } | null)?.code;
  if (code !== '22003' && code !== '22P02') return false;
  return params.some((param) => typeof param === 'number' && (!Number.isInteger(param) || Math.abs(param) > INTEGER_RANGE));
}

/** `?` → `$n`, leaving quoted text alone. */
export function toNumberedPlaceholders(sql: string): string {
  let index = 0;
  let quote: string | null = null;
  let out = '';
  for (const char of sql) {
    if (quote) {
      if (char === quote) quote = null;
    } else if (char === "'" || char === '"') {
      quote = char;
    } else if (char === '?') {
      out += `$${++index}`;
      continue;
    }
    out += char;
  }
  return out;
}

export type StatementTimer = (sql: string, seconds: number) => void;

export interface PreparedQueries {
  /** A statement prepared once per SQL text, answering column names and arrays of values. */
  statement(sql: string): PreparedStatement;
  /** `statement` for SQL that writes: it runs on the pool's connections, never the read-only reader. */
  writeStatement(sql: string): PreparedStatement;
  /** Calls `listener` with the SQL of every prepared read (they bypass knex's `query` event); returns the unsubscribe. */
  observe(listener: (sql: string) => void): () => void;
  /** Calls `listener` with the SQL and duration (seconds) of every prepared statement once it finished; returns the unsubscribe. */
  time(listener: StatementTimer): () => void;
  /** Releases SQLite statements; call before the connection closes. */
  finalize(): Promise<void>;
}

/**
 * @param reader a SQLite connection of its own for these reads (file databases in WAL
 * mode). Its reads are synchronous: an indexed lookup costs far less than a hop to the
 * async driver's thread pool, they never queue behind the writer, and they never see
 * another request's uncommitted transaction.
 */
export function createPreparedQueries(knex: Knex, dialect: Dialect, reader?: SqliteReader): PreparedQueries {
  const client = (knex as unknown as { client: KnexClient }).client;
  const sqliteStatements = new Map<unknown, Map<string, Promise<SqliteStatement>>>();

  /** Runs on a connection of the pool, or on the one a transaction holds (its client answers that one). */
  async function onConnection<T>(run: (connection: unknown) => Promise<T>, trx?: Knex.Transaction): Promise<T> {
    const owner = trx ? (trx as unknown as { client: KnexClient }).client : client;
    const connection = await owner.acquireConnection();
    try {
      return await run(connection);
    } finally {
      await owner.releaseConnection(connection);
    }
  }

  /**
   * A statement prepared once per connection. The driver reports a statement it cannot
   * prepare only to the prepare callback (and never answers the statement's queued reads),
   * so the read waits for that callback and fails with its error.
   */
  function sqliteStatement(connection: unknown, sql: string): Promise<SqliteStatement> {
    let statements = sqliteStatements.get(connection);
    if (!statements) sqliteStatements.set(connection, (statements = new Map()));
    let statement = statements.get(sql);
    if (!statement) {
      const cache = statements;
      statement = new Promise<SqliteStatement>((resolve, reject) => {
        const prepared = (connection as SqliteConnection).prepare(sql, (error) => {
          if (!error) return resolve(prepared);
          cache.delete(sql);
          reject(error);
        });
      });
      statements.set(sql, statement);
    }
    return statement;
  }

  const observers = new Set<(sql: string) => void>();
  const timers = new Set<StatementTimer>();

  // Queries built at request time come in a bounded number of shapes; the cap only guards against surprises.
  const MAX_CACHED = 500;

  /** Raw reads on the pool: PostgreSQL answers arrays itself; the async SQLite driver answers objects in column order. */
  const rawViaPool = (sql: string, name: string, text: string) => (params: readonly unknown[], trx?: Knex.Transaction) =>
    onConnection(async (connection): Promise<RawRows> => {
      if (dialect === 'postgresql') {
        try {
          const result = await (connection as PgConnection).query({ name: `${name}_a`, text, values: params, rowMode: 'array' });
          return { columns: result.fields.map((field) => field.name), rows: result.rows as unknown[][] };
        } catch (error) {
          if (outOfRangeLookup(error, params)) return { columns: [], rows: [] };
          throw error;
        }
      }
      const statement = await sqliteStatement(connection, sql);
      const objects = await new Promise<Record<string, unknown>[]>((resolve, reject) =>
        statement.all(params, (error, rows) => (error ? reject(error) : resolve(rows as Record<string, unknown>[]))),
      );
      return { columns: objects.length > 0 ? Object.keys(objects[0]!) : [], rows: objects.map((row) => Object.values(row)) };
    }, trx);

  /** Raw reads on the synchronous reader. */
  function rawOnReader(sql: string) {
    let statement: ReaderStatement | undefined;
    let columns: string[];
    return async (params: readonly unknown[]): Promise<RawRows> => {
      if (!statement) {
        statement = reader!.prepare(sql).raw(true);
        columns = statement.columns().map((column) => column.name);
      }
      return { columns, rows: statement.all(...params.map(readerParam)) as unknown[][] };
    };
  }

  const statements = new Map<string, PreparedStatement>();
  const writeStatements = new Map<string, PreparedStatement>();

  function cached(sql: string, writes: boolean): PreparedStatement {
    const cache = writes ? writeStatements : statements;
    let prepared = cache.get(sql);
    if (prepared) return prepared;
    const text = dialect === 'postgresql' ? toNumberedPlaceholders(sql) : sql;
    const name = `fk_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    const run = reader && dialect === 'sqlite' && !writes ? rawOnReader(sql) : rawViaPool(sql, name, text);
    prepared = {
      sql,
      raw(params = [], trx) {
        for (const observer of observers) observer(sql);
        if (timers.size === 0) return run(params, trx);
        const started = performance.now();
        return run(params, trx).finally(() => {
          const seconds = (performance.now() - started) / 1000;
          for (const timer of timers) timer(sql, seconds);
        });
      },
    };
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(sql, prepared);
    return prepared;
  }

  const queries: PreparedQueries = {
    statement: (sql) => cached(sql, false),
    writeStatement: (sql) => cached(sql, true),
    observe(listener) {
      observers.add(listener);
      return () => observers.delete(listener);
    },
    time(listener) {
      timers.add(listener);
      return () => timers.delete(listener);
    },
    async finalize() {
      for (const statements of sqliteStatements.values()) {
        for (const pending of statements.values()) {
          const statement = await pending.catch(() => null);
          if (statement) await new Promise<void>((resolve) => statement.finalize(() => resolve()));
        }
      }
      sqliteStatements.clear();
      statements.clear();
      writeStatements.clear();
    },
  };
  return queries;
}
