/**
 * The one way to read: a query in property names (`database.from(Entity, 'e').where('ownerId', id)`),
 * run as a prepared statement compiled once per SQL text and answered as the entity's
 * properties, decoded. Reads that run on most requests are built once with named parameters
 * (`prepareRows((p) => …)`); a parameter whose value is a list (`whereIn('id', p.ids)`) gets
 * one compiled statement per list length, kept here, so no plugin keeps a cache of its own.
 */
import type { Knex } from '@mikro-orm/knex';
import type { PreparedRead, ReadEngine, ValueKind, ValueRow } from './entity-reads.js';
import { listLengths } from './named-params.js';
import type { Query, RowOf } from './query.js';
import { countRows } from './rows-only.js';
import { emOf, type TxOption } from './transaction.js';

type AnyQuery = Query<any, any, any>;

export interface Reads {
  /** The rows of a query: its main entity's properties, each nested entity under its key. */
  rows<Q extends AnyQuery>(query: Q, options?: TxOption): Promise<RowOf<Q>[]>;
  /** The first row, or undefined. */
  row<Q extends AnyQuery>(query: Q, options?: TxOption): Promise<RowOf<Q> | undefined>;
  /** How many rows the query has, as a number on both engines. */
  count(query: AnyQuery, options?: TxOption): Promise<number>;
  /** The first row of an aggregate query (`count`, `max` …), each value a number (null stays null). */
  totals<K extends string>(query: AnyQuery, options?: TxOption): Promise<Record<K, number | null>>;
  /**
   * Computed columns that belong to no entity (grouped counts, distinct values, unions): the
   * query selects each key of `shape` under that name, and each value is decoded as its kind.
   */
  values<S extends Record<string, ValueKind>>(query: AnyQuery, shape: S, options?: TxOption): Promise<ValueRow<S>[]>;
  /** `rows`, compiled once: `params` fill the names the builder used (`p.id`, `p.ids` for a list). */
  prepareRows<Q extends AnyQuery, P extends string>(build: (params: Record<P, never>) => Q): PreparedRead<RowOf<Q>, P>;
  /** `values`, compiled once. */
  prepareValues<S extends Record<string, ValueKind>, P extends string>(build: (params: Record<P, never>) => AnyQuery, shape: S): PreparedRead<ValueRow<S>, P>;
}

/** Compiled statements kept per prepared read, one per shape of its list parameters. */
const MAX_SHAPES = 64;

export function createReads(engine: ReadEngine): Reads {
  const { knex, shapeFor, run, withFirst, compilePrepared, decodeValues, totals } = engine;

  const joinedOf = (query: AnyQuery) =>
    query.nested.length === 0 ? undefined : Object.fromEntries(query.nested.map(({ key, entity, prefix }) => [key, { entity, prefix }]));

  async function rows(query: AnyQuery, options: TxOption = {}) {
    const { sql, raw } = await run(query.toKnex(), emOf(options.tx));
    return raw.rows.map(shapeFor(query.entity, joinedOf(query), sql, raw.columns));
  }

  /**
   * A statement per set of list lengths, compiled when first needed: `lists` says which
   * parameters hold lists and how long they are.
   */
  function variants<R>(compile: (lists: ReadonlyMap<string, number>) => (values: Readonly<Record<string, unknown>>) => Promise<R[]>) {
    const compiled = new Map<string, (values: Readonly<Record<string, unknown>>) => Promise<R[]>>();
    return withFirst((values) => {
      const lists = listLengths(values);
      const key = [...lists].map(([name, length]) => `${name}:${length}`).join(',');
      let all = compiled.get(key);
      if (!all) {
        all = compile(lists);
        if (compiled.size < MAX_SHAPES) compiled.set(key, all);
      }
      return all(values);
    });
  }

  return {
    rows: rows as Reads['rows'],
    async row(query, options) {
      return (await rows(query.clone().limit(1), options))[0] as never;
    },
    async count(query, options = {}) {
      return (await totals(countRows(knex, query.toKnex()), { em: emOf(options.tx) })).n ?? 0;
    },
    totals: ((query: AnyQuery, options: TxOption = {}) => totals(query.toKnex(), { em: emOf(options.tx) })) as Reads['totals'],
    values: (async (query: AnyQuery, shape: Record<string, ValueKind>, options: TxOption = {}) =>
      decodeValues((await run(query.toKnex(), emOf(options.tx))).raw, shape)) as Reads['values'],
    prepareRows(build) {
      return variants((lists) => {
        let entity: AnyQuery['entity'];
        let joined: ReturnType<typeof joinedOf>;
        const statement = compilePrepared((params) => {
          const query = build(params as never);
          entity = query.entity;
          joined = joinedOf(query);
          return query.toKnex() as Knex.QueryBuilder;
        }, lists);
        // The synchronous SQLite reader answers the same columns array every time: its shape is kept here.
        let lastColumns: readonly string[] | undefined;
        let lastShape: ((values: unknown[]) => unknown) | undefined;
        return async (values) => {
          const raw = await statement.raw(values);
          if (raw.columns !== lastColumns || !lastShape) {
            lastShape = shapeFor(entity, joined, statement.sql, raw.columns);
            lastColumns = raw.columns;
          }
          return raw.rows.map(lastShape);
        };
      }) as never;
    },
    prepareValues(build, shape) {
      return variants((lists) => {
        const statement = compilePrepared((params) => build(params as never).toKnex(), lists);
        return async (values) => decodeValues(await statement.raw(values), shape);
      }) as never;
    },
  };
}
