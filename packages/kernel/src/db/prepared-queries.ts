/**
 * Prepared statements for hot read paths. Building a query through knex costs about
 * as much as running it on SQLite, so a handful of reads that run on every request
 * (token lookup, access checks) are written as SQL once and prepared per connection.
 * Placeholders are `?`; they become `$1, $2, …` on PostgreSQL.
 */
import { createHash } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import type { Dialect } from './open-database.js';

export interface PreparedQuery<Row> {
  all(params?: readonly unknown[]): Promise<Row[]>;
  first(params?: readonly unknown[]): Promise<Row | undefined>;
}

/** A statement's result as its column names and one array of values per row. */
export interface RawRows {
  columns: readonly string[];
  rows: unknown[][];
}

/** A statement prepared once, answering arrays of values: the fastest shape to build other objects from. */
export interface PreparedStatement {
  readonly sql: string;
  raw(params?: readonly unknown[]): Promise<RawRows>;
}

interface SqliteStatement {
  all(params: readonly unknown[], callback: (error: Error | null, rows: unknown[]) => void): void;
  finalize(callback?: () => void): void;
}
interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
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

/**
 * Rows as one object literal per statement shape, filled from the driver's raw arrays:
 * cheaper to read from SQLite than the driver's own row objects, and fast-mode objects
 * for the presenters that read them. A later column of the same name wins, as it does
 * in the driver's objects.
 */
function rowBuilder(names: readonly string[]): (values: unknown[]) => unknown {
  // The keys are the statement's own column names, JSON-quoted.
  return new Function('v', `return {${names.map((name, index) => `${JSON.stringify(name)}: v[${index}]`).join(', ')}};`) as (values: unknown[]) => unknown;
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

export interface PreparedQueries {
  prepare<Row>(sql: string): PreparedQuery<Row>;
  /** The same statement answering column names and arrays of values. */
  statement(sql: string): PreparedStatement;
  /** Runs a knex select the same way: compiled once per SQL text, on the read connection. */
  read<Row>(query: Knex.QueryBuilder): Promise<Row[]>;
  /** Calls `listener` with the SQL of every prepared read (they bypass knex's `query` event); returns the unsubscribe. */
  observe(listener: (sql: string) => void): () => void;
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
  const sqliteStatements = new Map<unknown, Map<string, SqliteStatement>>();

  async function onConnection<T>(run: (connection: unknown) => Promise<T>): Promise<T> {
    const connection = await client.acquireConnection();
    try {
      return await run(connection);
    } finally {
      await client.releaseConnection(connection);
    }
  }

  function sqliteStatement(connection: unknown, sql: string): SqliteStatement {
    let statements = sqliteStatements.get(connection);
    if (!statements) sqliteStatements.set(connection, (statements = new Map()));
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = (connection as SqliteConnection).prepare(sql)));
    return statement;
  }

  /** The query on the reader, prepared once: synchronous underneath, a promise like the others. */
  function onReader<Row>(sql: string) {
    let statement: ReaderStatement | undefined;
    let build: (values: unknown[]) => unknown;
    return async (params: readonly unknown[]) => {
      if (!statement) {
        statement = reader!.prepare(sql).raw(true);
        build = rowBuilder(statement.columns().map((column) => column.name));
      }
      return (statement.all(...params.map(readerParam)) as unknown[][]).map(build) as Row[];
    };
  }

  const observers = new Set<(sql: string) => void>();

  // Queries built at request time come in a bounded number of shapes; the cap only guards against surprises.
  const bySql = new Map<string, PreparedQuery<unknown>>();
  const MAX_CACHED = 500;

  /** Raw reads on the pool: PostgreSQL answers arrays itself; the async SQLite driver answers objects in column order. */
  const rawViaPool = (sql: string, name: string, text: string) => (params: readonly unknown[]) =>
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
      const statement = sqliteStatement(connection, sql);
      const objects = await new Promise<Record<string, unknown>[]>((resolve, reject) =>
        statement.all(params, (error, rows) => (error ? reject(error) : resolve(rows as Record<string, unknown>[]))),
      );
      return { columns: objects.length > 0 ? Object.keys(objects[0]!) : [], rows: objects.map((row) => Object.values(row)) };
    });

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

  const queries: PreparedQueries = {
    statement(sql) {
      let prepared = statements.get(sql);
      if (prepared) return prepared;
      const text = dialect === 'postgresql' ? toNumberedPlaceholders(sql) : sql;
      const name = `fk_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
      const run = reader && dialect === 'sqlite' ? rawOnReader(sql) : rawViaPool(sql, name, text);
      prepared = {
        sql,
        raw(params = []) {
          for (const observer of observers) observer(sql);
          return run(params);
        },
      };
      if (statements.size >= MAX_CACHED) statements.clear();
      statements.set(sql, prepared);
      return prepared;
    },
    read<Row>(query: Knex.QueryBuilder) {
      const { sql, bindings } = query.toSQL();
      let prepared = bySql.get(sql);
      if (!prepared) {
        if (bySql.size >= MAX_CACHED) bySql.clear();
        bySql.set(sql, (prepared = queries.prepare(sql)));
      }
      return prepared.all(bindings) as Promise<Row[]>;
    },
    prepare<Row>(sql: string): PreparedQuery<Row> {
      const text = dialect === 'postgresql' ? toNumberedPlaceholders(sql) : sql;
      const name = `fk_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
      const viaPool = (params: readonly unknown[]) =>
        onConnection(async (connection) => {
          if (dialect === 'postgresql') return (await (connection as PgConnection).query({ name, text, values: params })).rows as Row[];
          const statement = sqliteStatement(connection, sql);
          return new Promise<Row[]>((resolve, reject) => statement.all(params, (error, rows) => (error ? reject(error) : resolve(rows as Row[]))));
        });
      const run = reader && dialect === 'sqlite' ? onReader<Row>(sql) : viaPool;
      const all = (params: readonly unknown[] = []) => {
        for (const observer of observers) observer(sql);
        return run(params);
      };
      return { all, first: async (params) => (await all(params))[0] };
    },
    observe(listener) {
      observers.add(listener);
      return () => observers.delete(listener);
    },
    async finalize() {
      for (const statements of sqliteStatements.values()) {
        for (const statement of statements.values()) await new Promise<void>((resolve) => statement.finalize(() => resolve()));
      }
      sqliteStatements.clear();
      bySql.clear();
      statements.clear();
    },
  };
  return queries;
}
