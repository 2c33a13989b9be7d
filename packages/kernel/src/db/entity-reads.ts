/**
 * The one way to read: a knex query over an entity's table, run as a prepared statement
 * (compiled once per SQL text) and answered as the entity's properties, decoded.
 * Hot reads build their query once (`prepareRows`) with named parameters.
 */
import type { EntityManager, EntitySchema, InferEntity } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/knex';
import { type createCodecs, type Joined, type NoJoins, rowShape, valueDecoders } from './entity-rows.js';
import { compileNamed, quoteIdentifier } from './named-params.js';
import type { PreparedQueries, RawRows } from './prepared-queries.js';
import { countRows } from './rows-only.js';

/** The rows of a query whose main entity is `E`, with joined entities nested under their keys. */
export type Rows<E, J extends Joined = NoJoins> = InferEntity<E> & { [K in keyof J]: InferEntity<J[K]['entity']> };

export interface ReadOptions<J extends Joined> {
  /** Entities joined in: their columns, selected with `columns(entity, alias, prefix)`, nest under each key. */
  joined?: J;
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

export interface EntityReads {
  /** `select <entity columns> from <table> [as alias]`: a query to narrow with knex. */
  from(entity: EntitySchema<any, any>, alias?: string): Knex.QueryBuilder;
  /** `from <table> [as alias]` with nothing selected yet: for aggregates and subqueries. */
  table(entity: EntitySchema<any, any>, alias?: string): Knex.QueryBuilder;
  /** The entity's columns for a select list, qualified by `alias` and renamed with `prefix` (for joins). */
  columns(entity: EntitySchema<any, any>, alias?: string, prefix?: string): string[];
  /**
   * Column references (`n.name as ns_name`) as one select fragment, quoted once per list
   * (keep the list in a constant): knex would parse and quote each again on every query.
   */
  quotedColumns(columns: readonly string[]): Knex.Raw;
  rows<E extends EntitySchema<any, any>, J extends Joined = NoJoins>(entity: E, query: Knex.QueryBuilder, options?: ReadOptions<J>): Promise<Rows<E, J>[]>;
  row<E extends EntitySchema<any, any>, J extends Joined = NoJoins>(
    entity: E,
    query: Knex.QueryBuilder,
    options?: ReadOptions<J>,
  ): Promise<Rows<E, J> | undefined>;
  /** `count(*)` of a query's rows, as a number on both engines. */
  count(query: Knex.QueryBuilder, options?: { em?: EntityManager }): Promise<number>;
  /** The first row of an aggregate query (`count`, `sum`, `max` …), each value a number (null stays null). */
  totals<K extends string>(query: Knex.QueryBuilder, options?: { em?: EntityManager }): Promise<Record<K, number | null>>;
  /**
   * Computed columns that belong to no entity (grouped counts, distinct values, unions):
   * the query selects each key of `shape` under that name, and each value is decoded as
   * its kind, the same on both engines.
   */
  values<S extends Record<string, ValueKind>>(query: Knex.QueryBuilder, shape: S, options?: { em?: EntityManager }): Promise<ValueRow<S>[]>;
  prepareRows<E extends EntitySchema<any, any>, P extends string, J extends Joined = NoJoins>(
    entity: E,
    build: (params: Record<P, never>) => Knex.QueryBuilder,
    options?: { joined?: J },
  ): PreparedRead<Rows<E, J>, P>;
  /** `values`, compiled once: `params` fill the names the builder used, as with `prepareRows`. */
  prepareValues<S extends Record<string, ValueKind>, P extends string>(
    build: (params: Record<P, never>) => Knex.QueryBuilder,
    shape: S,
  ): PreparedRead<ValueRow<S>, P>;
}

/** What both read APIs share: running a statement (prepared, or in a transaction), row shapes, decoders. */
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

  async function read(entity: EntitySchema<any, any>, query: Knex.QueryBuilder, options: ReadOptions<Joined> = {}) {
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

export function createEntityReads(engine: ReadEngine): EntityReads {
  const { knex, tableOf, columnNames, shapeFor, run, read, selectList, withFirst, compilePrepared, decodeValues, totals } = engine;

  const columns: EntityReads['columns'] = (entity, alias, prefix) =>
    columnNames(entity).map((column) => {
      const qualified = alias ? `${alias}.${column}` : column;
      return prefix ? `${qualified} as ${prefix}${column}` : qualified;
    });

  const table: EntityReads['table'] = (entity, alias) => knex(alias ? `${tableOf(entity)} as ${alias}` : tableOf(entity));

  const quotedLists = new WeakMap<readonly string[], string>();
  function quotedColumns(list: readonly string[]) {
    let text = quotedLists.get(list);
    if (text === undefined) {
      text = list
        .map((column) => {
          const [reference, name] = column.split(/\s+as\s+/i);
          const quoted = reference!.split('.').map(quoteIdentifier).join('.');
          return name ? `${quoted} as ${quoteIdentifier(name)}` : quoted;
        })
        .join(', ');
      quotedLists.set(list, text);
    }
    return knex.raw(text);
  }

  async function values(query: Knex.QueryBuilder, shape: Record<string, ValueKind>, options: { em?: EntityManager } = {}) {
    return decodeValues((await run(query, options.em)).raw, shape);
  }

  return {
    from: (entity, alias) => table(entity, alias).select(selectList(entity, alias)),
    table,
    columns,
    quotedColumns,
    totals: totals as EntityReads['totals'],
    values: values as EntityReads['values'],
    rows: read as EntityReads['rows'],
    async row(entity, query, options) {
      const rows = await read(entity, query.clone().limit(1), options);
      return rows[0] as never;
    },
    async count(query, options = {}) {
      return (await totals(countRows(knex, query), options)).n ?? 0;
    },
    prepareRows(entity, build, options = {}) {
      const statement = compilePrepared(build as (params: Record<string, never>) => Knex.QueryBuilder);
      // The synchronous SQLite reader answers the same columns array every time: its shape is kept here.
      let lastColumns: readonly string[] | undefined;
      let lastShape: ((values: unknown[]) => unknown) | undefined;
      const all = async (values: Readonly<Record<string, unknown>>) => {
        const raw = await statement.raw(values);
        if (raw.columns !== lastColumns || !lastShape) {
          lastShape = shapeFor(entity, options.joined, statement.sql, raw.columns);
          lastColumns = raw.columns;
        }
        return raw.rows.map(lastShape);
      };
      return withFirst(all) as never;
    },
    prepareValues(build, shape) {
      const statement = compilePrepared(build as (params: Record<string, never>) => Knex.QueryBuilder);
      return withFirst(async (values) => decodeValues(await statement.raw(values), shape)) as never;
    },
  };
}
