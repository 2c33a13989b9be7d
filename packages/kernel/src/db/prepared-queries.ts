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
  /** Releases SQLite statements; call before the connection closes. */
  finalize(): Promise<void>;
}

export function createPreparedQueries(knex: Knex, dialect: Dialect): PreparedQueries {
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

  return {
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
    },
  };
}
