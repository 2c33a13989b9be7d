/**
 * The engine under the reads (reads.ts): a statement run as a prepared statement, compiled
 * once per SQL text, or inside a transaction; rows decoded into the entity's properties;
 * computed values decoded by the kind each is named with.
 */
import type { EntityManager, EntitySchema } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/knex';
import { type createCodecs, type Joined, rowShape, valueDecoders } from './entity-rows.js';
import { compileNamed, quoteIdentifier } from './named-params.js';
import type { PreparedQueries, RawRows } from './prepared-queries.js';

interface ReadOptions {
  /** Entities joined in: their columns nest under each key. */
  joined?: Joined;
  /** Read inside this transaction (its writes are visible; nothing is prepared). */
  em?: EntityManager;
}

/** The kinds of computed value `values` decodes: `day` is a `YYYY-MM-DD` date. */
export type ValueKind = keyof typeof valueDecoders;
type ValueOf<K extends ValueKind> = K extends 'number' ? number : K extends 'boolean' ? boolean : K extends 'date' ? Date : string;
/** A row of `values`: each column of the shape as its kind, or null. */
export type ValueRow<S extends Record<string, ValueKind>> = { [K in keyof S]: ValueOf<S[K]> };

/** A read compiled once: `params` fill the names the builder used (`p.id`, `p.limit`). */
export interface PreparedRead<Row, P extends string> {
  all(params: Readonly<Record<P, unknown>>): Promise<Row[]>;
  first(params: Readonly<Record<P, unknown>>): Promise<Row | undefined>;
}

/** Running a statement (prepared, or in a transaction), row shapes, decoders: what the reads are built on. */
export type ReadEngine = ReturnType<typeof createReadEngine>;

export function createReadEngine(knex: Knex, prepared: PreparedQueries, codecs: ReturnType<typeof createCodecs>) {
  const tableOf = (entity: EntitySchema<any, any>) => entity.meta.tableName ?? entity.meta.collection;
  const columnNames = (entity: EntitySchema<any, any>) => [...codecs(entity).keys()];

  /** Row shapes per statement and joined spec. */
  const shapes = new Map<string, (values: unknown[]) => unknown>();
  function shapeFor(entity: EntitySchema<any, any>, joined: Joined | undefined, sql: string, columns: readonly string[]) {
    const key = `${entity.meta.className}\u0000${joined ? Object.keys(joined).join(',') : ''}\u0000${sql}\u0000${columns.join(',')}`;
    let shape = shapes.get(key);
    if (!shape) {
      const joins = Object.entries(joined ?? {}).map(([name, spec]) => ({ key: name, prefix: spec.prefix, codec: codecs(spec.entity) }));
      shape = rowShape(columns, codecs(entity), joins);
      if (shapes.size > 2000) shapes.clear();
      shapes.set(key, shape);
    }
    return shape;
  }

  async function runInTransaction(em: EntityManager, query: Knex.QueryBuilder): Promise<RawRows> {
    const trx = em.getTransactionContext<Knex.Transaction>();
    const result = await (trx ? query.clone().transacting(trx) : query.clone());
    const objects = result as Record<string, unknown>[];
    return { columns: objects.length > 0 ? Object.keys(objects[0]!) : [], rows: objects.map((row) => Object.values(row)) };
  }

  /** Runs a query as a prepared statement, or inside `em`'s transaction; answers its SQL with the rows. */
  async function run(query: Knex.QueryBuilder, em: EntityManager | undefined): Promise<{ sql: string; raw: RawRows }> {
    const compiled = query.toSQL();
    const raw = em ? await runInTransaction(em, query) : await prepared.statement(compiled.sql).raw(compiled.bindings);
    return { sql: compiled.sql, raw };
  }

  async function read(entity: EntitySchema<any, any>, query: Knex.QueryBuilder, options: ReadOptions = {}) {
    const { sql, raw } = await run(query, options.em);
    const shape = shapeFor(entity, options.joined, sql, raw.columns);
    return raw.rows.map(shape);
  }

  /**
   * An entity's select list, quoted once and passed through as one raw fragment: knex would
   * otherwise parse and quote every column again on every request (both engines take `"a"."b"`).
   */
  const selectLists = new Map<string, string>();
  function selectList(entity: EntitySchema<any, any>, alias: string | undefined) {
    const key = `${entity.meta.className}\u0000${alias ?? ''}`;
    let list = selectLists.get(key);
    if (list === undefined) {
      list = columnNames(entity)
        .map((column) => (alias ? `${quoteIdentifier(alias)}.${quoteIdentifier(column)}` : quoteIdentifier(column)))
        .join(', ');
      selectLists.set(key, list);
    }
    return knex.raw(list);
  }

  async function totals(query: Knex.QueryBuilder, options: { em?: EntityManager } = {}) {
    const { raw } = await run(query, options.em);
    const values = raw.rows[0] ?? [];
    return Object.fromEntries(
      raw.columns.map((column, index) => [column, values[index] === null || values[index] === undefined ? null : Number(values[index])]),
    );
  }

  /** A prepared read from its `all`. */
  const withFirst = <R>(all: (values: Readonly<Record<string, unknown>>) => Promise<R[]>): PreparedRead<R, string> => ({
    all,
    first: async (values) => (await all(values))[0],
  });

  /** Compiles `build` once with stand-ins for its named parameters; the statement then takes values by name. */
  function compilePrepared(build: (params: Record<string, never>) => Knex.QueryBuilder, lists?: ReadonlyMap<string, number>) {
    const named = compileNamed(build, lists);
    const statement = prepared.statement(named.sql);
    return { sql: named.sql, raw: (values: Readonly<Record<string, unknown>>) => statement.raw(named.bindings(values)) };
  }

  function decodeValues(raw: RawRows, shape: Record<string, ValueKind>) {
    const decoders = raw.columns.map((column) => {
      const kind = shape[column];
      if (!kind) throw new Error(`values: the query selects "${column}", which the shape does not name`);
      return [column, valueDecoders[kind]] as const;
    });
    return raw.rows.map((row) => Object.fromEntries(decoders.map(([column, decode], index) => [column, decode(row[index]) ?? null])));
  }

  return { knex, tableOf, columnNames, shapeFor, run, read, selectList, withFirst, compilePrepared, decodeValues, totals, codecs };
}
