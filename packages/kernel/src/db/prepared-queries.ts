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

interface SqliteStatement {
  all(params: readonly unknown[], callback: (error: Error | null, rows: unknown[]) => void): void;
  finalize(callback?: () => void): void;
}
interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
}
interface PgConnection {
  query(config: { name: string; text: string; values: readonly unknown[] }): Promise<{ rows: unknown[] }>;
}
interface KnexClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<void> | void;
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
  /** Runs a knex select the same way: compiled once per SQL text, on the read connection. */
  read<Row>(query: Knex.QueryBuilder): Promise<Row[]>;
  /** Releases SQLite statements; call before the connection closes. */
  finalize(): Promise<void>;
}

/**
 * @param readConnections SQLite connections of their own for these reads (file databases
 * in WAL mode): reads then run beside the writer's connection, and each other, instead
 * of queueing for it, and never see another request's uncommitted transaction.
 */
export function createPreparedQueries(knex: Knex, dialect: Dialect, readConnections: readonly unknown[] = []): PreparedQueries {
  const client = (knex as unknown as { client: KnexClient }).client;
  const sqliteStatements = new Map<unknown, Map<string, SqliteStatement>>();
  const busy = readConnections.map(() => 0);

  async function onConnection<T>(run: (connection: unknown) => Promise<T>): Promise<T> {
    if (readConnections.length > 0) {
      const index = busy.indexOf(Math.min(...busy));
      busy[index]!++;
      try {
        return await run(readConnections[index]);
      } finally {
        busy[index]!--;
      }
    }
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

  // Queries built at request time come in a bounded number of shapes; the cap only guards against surprises.
  const bySql = new Map<string, PreparedQuery<unknown>>();
  const MAX_CACHED = 500;

  const queries: PreparedQueries = {
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
      const all = (params: readonly unknown[] = []) =>
        onConnection(async (connection) => {
          if (dialect === 'postgresql') return (await (connection as PgConnection).query({ name, text, values: params })).rows as Row[];
          const statement = sqliteStatement(connection, sql);
          return new Promise<Row[]>((resolve, reject) => statement.all(params, (error, rows) => (error ? reject(error) : resolve(rows as Row[]))));
        });
      return { all, first: async (params) => (await all(params))[0] };
    },
    async finalize() {
      for (const statements of sqliteStatements.values()) {
        for (const statement of statements.values()) await new Promise<void>((resolve) => statement.finalize(() => resolve()));
      }
      sqliteStatements.clear();
      bySql.clear();
    },
  };
  return queries;
}
