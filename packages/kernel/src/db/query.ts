/**
 * Reads in property names. A query is over one entity (and the entities it joins, each under
 * an alias), and every column it names is a property: `ownerId` of the main entity, or
 * `i.milestoneId` of the one aliased `i`. The kernel maps each to its column from the
 * entities' metadata as the query is built, and throws on a name no entity of the query has,
 * so a misspelt property fails where the query is written (and, where TypeScript can tell,
 * at compile time). The SQL is knex's, so prepared statements and both engines work as for
 * any other statement; column names appear only in entities and migrations.
 *
 * Raw SQL has one door, `sql`, whose `${ref('p.name')}` pieces still name properties (an
 * ordering GitLab defines in SQL, a comparison of two columns' prefixes): `grep sql\``
 * finds every use.
 */
import type { EntitySchema, InferEntity } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/knex';

export type AnyEntity = EntitySchema<any, any>;
/** The property names of an entity. */
export type PropOf<E> = Extract<keyof InferEntity<E>, string>;
/** The entities of a query, by alias; `''` is the main entity when it has no alias. */
export type Scope = Record<string, AnyEntity>;
type Qualified<S extends Scope> = { [A in keyof S & string]: A extends '' ? never : `${A}.${PropOf<S[A]>}` }[keyof S & string];
/** A column of a query, by property: unqualified for the main entity, `alias.property` for any. */
export type Ref<S extends Scope, M extends keyof S & string> = PropOf<S[M]> | Qualified<S>;

/** A value a condition compares with (named parameters of prepared reads stand in as numbers). */
export type Value = string | number | boolean | Date | null;
export type Operator = '=' | '<>' | '!=' | '<' | '<=' | '>' | '>=';
export type Direction = 'asc' | 'desc';

/** A piece of raw SQL whose column references name properties, resolved by the query it joins. */
export class Sql {
  constructor(
    readonly strings: readonly string[],
    readonly parts: readonly unknown[],
  ) {}
}
/** A column named by property inside `sql`. */
export class PropertyRef {
  constructor(readonly ref: string) {}
}
/** A column named by property, for `sql` fragments. */
export const ref = (name: string): PropertyRef => new PropertyRef(name);
/** Raw SQL with `${ref('alias.property')}` columns, `${value}` bindings and `${query}` subqueries. */
export const sql = (strings: TemplateStringsArray, ...parts: unknown[]): Sql => new Sql(strings, parts);

/** Column name of each property, per entity class, from the ORM's metadata. */
export type ColumnsOf = (entity: AnyEntity) => ReadonlyMap<string, string>;

interface Shared {
  knex: Knex;
  columnsOf: ColumnsOf;
  tableOf(entity: AnyEntity): string;
  selectList(entity: AnyEntity, alias: string | undefined): Knex.Raw;
}

/** A joined entity whose columns a read nests under `key`. */
export interface Nested {
  key: string;
  entity: AnyEntity;
  prefix: string;
}

/** The part of a query every condition method shares, for `where((w) => …)` groups too. */
export interface Conditions<S extends Scope, M extends keyof S & string> {
  where(column: Ref<S, M>, value: Value): this;
  where(column: Ref<S, M>, operator: Operator, value: Value): this;
  where(values: Partial<Record<Ref<S, M>, Value>>): this;
  where(group: (w: Conditions<S, M>) => void): this;
  where(condition: Sql): this;
  orWhere(column: Ref<S, M>, value: Value): this;
  orWhere(column: Ref<S, M>, operator: Operator, value: Value): this;
  orWhere(values: Partial<Record<Ref<S, M>, Value>>): this;
  orWhere(group: (w: Conditions<S, M>) => void): this;
  orWhere(condition: Sql): this;
  whereNot(column: Ref<S, M>, value: Value): this;
  whereNot(values: Partial<Record<Ref<S, M>, Value>>): this;
  whereIn(column: Ref<S, M>, values: readonly Value[] | Query<any, any>): this;
  orWhereIn(column: Ref<S, M>, values: readonly Value[] | Query<any, any>): this;
  whereNotIn(column: Ref<S, M>, values: readonly Value[] | Query<any, any>): this;
  orWhereNotIn(column: Ref<S, M>, values: readonly Value[] | Query<any, any>): this;
  whereNull(column: Ref<S, M>): this;
  orWhereNull(column: Ref<S, M>): this;
  whereNotNull(column: Ref<S, M>): this;
  orWhereNotNull(column: Ref<S, M>): this;
  /** Two columns compared: a correlated subquery's link to its outer query. */
  whereColumn(left: Ref<S, M>, right: Ref<S, M>): this;
  whereColumn(left: Ref<S, M>, operator: Operator, right: Ref<S, M>): this;
  /** `lower(column) = lower(text)`: GitLab's case-insensitive lookups of names and paths. */
  whereIgnoringCase(column: Ref<S, M>, text: string): this;
  orWhereIgnoringCase(column: Ref<S, M>, text: string): this;
  /** Any of `columns` contains `text`: case-insensitive, `%` and `_` literal, any length, on both engines. */
  whereContains(columns: readonly Ref<S, M>[], text: string): this;
  /** The column starts with `prefix` (taken literally). */
  whereStartsWith(column: Ref<S, M>, prefix: string): this;
  /** A row of `entity` (aliased `alias`) that `build` narrows exists; `build` may name the outer query's columns. */
  whereExists<A extends string, E extends AnyEntity>(entity: E, alias: A, build: (sub: Query<S & Record<A, E>, A>) => void): this;
  orWhereExists<A extends string, E extends AnyEntity>(entity: E, alias: A, build: (sub: Query<S & Record<A, E>, A>) => void): this;
  whereNotExists<A extends string, E extends AnyEntity>(entity: E, alias: A, build: (sub: Query<S & Record<A, E>, A>) => void): this;
  orWhereNotExists<A extends string, E extends AnyEntity>(entity: E, alias: A, build: (sub: Query<S & Record<A, E>, A>) => void): this;
  /** Matches nothing (an empty list of owners, say). */
  whereNone(): this;
}

/** A read over entity `S[M]` and the entities it joins; `J` are those whose columns a read nests. */
export interface Query<S extends Scope, M extends keyof S & string, J extends Record<string, AnyEntity> = Record<never, never>> extends Conditions<S, M> {
  /** The main entity, whose properties the rows carry. */
  readonly entity: S[M];
  readonly nested: readonly Nested[];
  join<A extends string, E extends AnyEntity>(
    entity: E,
    alias: A,
    left: Ref<S & Record<A, E>, M>,
    right: Ref<S & Record<A, E>, M>,
  ): Query<S & Record<A, E>, M, J>;
  leftJoin<A extends string, E extends AnyEntity>(
    entity: E,
    alias: A,
    left: Ref<S & Record<A, E>, M>,
    right: Ref<S & Record<A, E>, M>,
  ): Query<S & Record<A, E>, M, J>;
  /** Selects the columns of the joined entity aliased `alias`, nested under `key` in each row (null when a left join found none). */
  nest<K extends string, A extends keyof S & string>(key: K, alias: A): Query<S, M, J & Record<K, S[A]>>;
  /**
   * Selects only `properties` of the joined entity aliased `alias`, nested under `key`: what a
   * read needs of a wide row. A left join answers null for a missing row when the primary key
   * is among them.
   */
  nest<K extends string, A extends keyof S & string, P extends PropOf<S[A]>>(
    key: K,
    alias: A,
    properties: readonly P[],
  ): Query<S, M, J & Record<K, Picked<S[A], P>>>;
  /** Selects columns: by property (the rows carry the property), or `{ name: column }` (computed reads name them). */
  select(...columns: (Ref<S, M> | Partial<Record<string, Ref<S, M>>>)[]): this;
  /** Selects the value of a scalar subquery as `name`. */
  selectQuery(name: string, query: Query<any, any>): this;
  /**
   * Selects the value of a correlated scalar subquery over `entity` (aliased `alias`) as `name`:
   * `build` narrows it, may name the outer query's columns, and selects the one value (`max`, `count` …).
   */
  selectQuery<A extends string, E extends AnyEntity>(name: string, entity: E, alias: A, build: (sub: Query<S & Record<A, E>, A>) => void): this;
  /** Selects 1 or 0 as `name`: whether a row of `entity` that `build` narrows exists. */
  selectExists<A extends string, E extends AnyEntity>(name: string, entity: E, alias: A, build: (sub: Query<S & Record<A, E>, A>) => void): this;
  /** Selects raw SQL as `name`. */
  selectSql(name: string, expression: Sql): this;
  distinct(...columns: Ref<S, M>[]): this;
  /** `count(*)` (or of a column) as each key. */
  count(counts?: Readonly<Record<string, Ref<S, M> | '*'>>): this;
  /** `count(distinct column)` as each key. */
  countDistinct(counts: Readonly<Record<string, Ref<S, M>>>): this;
  /** How many rows `group` holds true for, as `name`. */
  countWhere(name: string, group: (w: Conditions<S, M>) => void): this;
  max(values: Readonly<Record<string, Ref<S, M>>>): this;
  min(values: Readonly<Record<string, Ref<S, M>>>): this;
  sum(values: Readonly<Record<string, Ref<S, M>>>): this;
  groupBy(...columns: Ref<S, M>[]): this;
  orderBy(column: Ref<S, M>, direction?: Direction, options?: { nulls: 'first' | 'last' }): this;
  orderBySql(expression: Sql): this;
  /**
   * A scalar subquery over `entity` (aliased `alias`) whose `build` may name this query's
   * columns and selects one value, as `sql` for an order term or a computed column.
   */
  subquery<A extends string, E extends AnyEntity>(entity: E, alias: A, build: (sub: Query<S & Record<A, E>, A>) => void): Sql;
  limit(count: number): this;
  offset(count: number): this;
  /** Rows of another query with the same columns after these (`union all`). */
  unionAll(query: Query<any, any>): this;
  /** Calls `change` with this query (conditions shared by several queries). */
  modify(change: (query: this) => void): this;
  clone(): Query<S, M, J>;
  /** The knex statement, for the kernel's readers. */
  toKnex(): Knex.QueryBuilder;
}

/** Some properties of an entity's rows, as `nest(key, alias, properties)` reads them (typed as an entity for `RowOf`). */
export type Picked<E, P extends PropOf<E>> = EntitySchema<Pick<InferEntity<E>, P>, never>;

/** The rows a query reads: its main entity's properties, and each nested entity under its key. */
export type RowOf<Q> = Q extends Query<infer S, infer M, infer J> ? InferEntity<S[M]> & { [K in keyof J]: InferEntity<J[K]> | null } : never;

type Impl = QueryImpl;

class QueryImpl {
  readonly nested: Nested[] = [];

  constructor(
    readonly shared: Shared,
    readonly scope: Map<string, AnyEntity>,
    readonly main: string,
    readonly entity: AnyEntity,
    public qb: Knex.QueryBuilder,
  ) {}

  /** The column a property reference names, qualified by its alias where the query has one. */
  column(name: string): string {
    const dot = name.indexOf('.');
    const alias = dot === -1 ? this.main : name.slice(0, dot);
    const property = dot === -1 ? name : name.slice(dot + 1);
    const entity = this.scope.get(alias);
    if (!entity) throw new Error(`Query over ${this.entity.meta.className}: no entity is aliased '${alias}' (in '${name}')`);
    const column = this.shared.columnsOf(entity).get(property);
    if (!column) throw new Error(`Query over ${this.entity.meta.className}: ${entity.meta.className} has no property '${property}' (in '${name}')`);
    return alias === '' ? column : `${alias}.${column}`;
  }

  private columnOrStar = (name: string) => (name === '*' ? '*' : this.column(name));

  private columnsOfRecord(values: Readonly<Record<string, string>>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const key of Object.keys(values)) out[key] = this.columnOrStar(values[key]!);
    return out;
  }

  /** Raw SQL with its property references resolved against this query. */
  raw(fragment: Sql): Knex.Raw {
    const { knex } = this.shared;
    let text = fragment.strings[0]!;
    const bindings: unknown[] = [];
    fragment.parts.forEach((part, index) => {
      if (part instanceof PropertyRef) {
        text += '??';
        bindings.push(this.column(part.ref));
      } else if (part instanceof QueryImpl) {
        // knex puts a subquery binding in parentheses itself.
        text += '?';
        bindings.push(part.qb);
      } else if (part instanceof Sql) {
        text += '?';
        bindings.push(this.raw(part));
      } else {
        text += '?';
        bindings.push(part);
      }
      text += fragment.strings[index + 1]!;
    });
    return knex.raw(text, bindings as Knex.RawBinding[]);
  }

  private value(value: unknown): unknown {
    if (value instanceof QueryImpl) return value.qb;
    if (value instanceof Sql) return this.raw(value);
    return value;
  }

  /**
   * A query over `entity` aliased `alias` that also knows this query's aliases (a correlated
   * subquery); it selects `1` (for `exists`) unless `selectOne` is false.
   */
  sub(entity: AnyEntity, alias: string, build: (sub: Impl) => void, selectOne = true): Knex.QueryBuilder {
    const scope = new Map(this.scope);
    scope.set(alias, entity);
    const { knex } = this.shared;
    const from = knex(`${this.shared.tableOf(entity)} as ${alias}`);
    const query = new QueryImpl(this.shared, scope, alias, entity, selectOne ? from.select(knex.raw('1')) : from);
    build(query);
    return query.qb;
  }

  private condition(method: string, args: unknown[]): this {
    const qb = this.qb as unknown as Record<string, (...a: unknown[]) => Knex.QueryBuilder>;
    const [first] = args;
    if (typeof first === 'function') {
      const self = this;
      qb[method]!.call(this.qb, function (this: Knex.QueryBuilder) {
        (first as (w: Impl) => void)(new QueryImpl(self.shared, self.scope, self.main, self.entity, this));
      });
    } else if (first instanceof Sql) {
      qb[method]!.call(this.qb, this.raw(first));
    } else if (typeof first === 'object' && first !== null) {
      const values: Record<string, unknown> = {};
      for (const key of Object.keys(first)) values[this.column(key)] = (first as Record<string, unknown>)[key];
      qb[method]!.call(this.qb, values);
    } else {
      const [, ...rest] = args;
      qb[method]!.call(this.qb, this.column(first as string), ...rest.map((value) => this.value(value)));
    }
    return this;
  }

  where(...args: unknown[]) {
    return this.condition('where', args);
  }
  orWhere(...args: unknown[]) {
    return this.condition('orWhere', args);
  }
  whereNot(...args: unknown[]) {
    return this.condition('whereNot', args);
  }
  private list(method: 'whereIn' | 'orWhereIn' | 'whereNotIn' | 'orWhereNotIn', column: string, values: readonly unknown[] | Impl) {
    this.qb[method](this.column(column), (values instanceof QueryImpl ? values.qb : [...values]) as readonly Knex.Value[]);
    return this;
  }
  whereIn(column: string, values: readonly unknown[] | Impl) {
    return this.list('whereIn', column, values);
  }
  orWhereIn(column: string, values: readonly unknown[] | Impl) {
    return this.list('orWhereIn', column, values);
  }
  whereNotIn(column: string, values: readonly unknown[] | Impl) {
    return this.list('whereNotIn', column, values);
  }
  orWhereNotIn(column: string, values: readonly unknown[] | Impl) {
    return this.list('orWhereNotIn', column, values);
  }
  whereNull(column: string) {
    this.qb.whereNull(this.column(column));
    return this;
  }
  orWhereNull(column: string) {
    this.qb.orWhereNull(this.column(column));
    return this;
  }
  whereNotNull(column: string) {
    this.qb.whereNotNull(this.column(column));
    return this;
  }
  orWhereNotNull(column: string) {
    this.qb.orWhereNotNull(this.column(column));
    return this;
  }
  whereColumn(left: string, operatorOrRight: string, right?: string) {
    const [operator, other] = right === undefined ? ['=', operatorOrRight] : [operatorOrRight, right];
    this.qb.whereRaw(`?? ${operator} ??`, [this.column(left), this.column(other)]);
    return this;
  }
  private lowerEquals(method: 'whereRaw' | 'orWhereRaw', column: string, text: string) {
    // Both sides lowered by the database, so they agree on every engine (SQLite's lower() folds ASCII only).
    this.qb[method]('lower(??) = lower(?)', [this.column(column), text]);
    return this;
  }
  whereIgnoringCase(column: string, text: string) {
    return this.lowerEquals('whereRaw', column, text);
  }
  orWhereIgnoringCase(column: string, text: string) {
    return this.lowerEquals('orWhereRaw', column, text);
  }
  whereContains(columns: readonly string[], text: string) {
    const position = this.shared.knex.client.dialect === 'postgresql' ? 'strpos' : 'instr';
    this.qb.where((any) => {
      for (const column of columns) any.orWhereRaw(`${position}(lower(??), lower(cast(? as text))) > 0`, [this.column(column), text]);
    });
    return this;
  }
  whereStartsWith(column: string, prefix: string) {
    this.qb.whereRaw(`?? like ? escape '\\'`, [this.column(column), `${prefix.replace(/[\\%_]/g, (char) => `\\${char}`)}%`]);
    return this;
  }
  private exists(
    method: 'whereExists' | 'orWhereExists' | 'whereNotExists' | 'orWhereNotExists',
    entity: AnyEntity,
    alias: string,
    build: (sub: Impl) => void,
  ) {
    this.qb[method](this.sub(entity, alias, build));
    return this;
  }
  whereExists(entity: AnyEntity, alias: string, build: (sub: Impl) => void) {
    return this.exists('whereExists', entity, alias, build);
  }
  orWhereExists(entity: AnyEntity, alias: string, build: (sub: Impl) => void) {
    return this.exists('orWhereExists', entity, alias, build);
  }
  whereNotExists(entity: AnyEntity, alias: string, build: (sub: Impl) => void) {
    return this.exists('whereNotExists', entity, alias, build);
  }
  orWhereNotExists(entity: AnyEntity, alias: string, build: (sub: Impl) => void) {
    return this.exists('orWhereNotExists', entity, alias, build);
  }
  whereNone() {
    this.qb.whereRaw('1 = 0');
    return this;
  }

  private joinWith(method: 'join' | 'leftJoin', entity: AnyEntity, alias: string, left: string, right: string) {
    if (this.scope.has(alias)) throw new Error(`Query over ${this.entity.meta.className}: the alias '${alias}' is taken`);
    this.scope.set(alias, entity);
    this.qb[method](`${this.shared.tableOf(entity)} as ${alias}`, this.column(left), this.column(right));
    return this;
  }
  join(entity: AnyEntity, alias: string, left: string, right: string) {
    return this.joinWith('join', entity, alias, left, right);
  }
  leftJoin(entity: AnyEntity, alias: string, left: string, right: string) {
    return this.joinWith('leftJoin', entity, alias, left, right);
  }
  nest(key: string, alias: string, properties?: readonly string[]) {
    const entity = this.scope.get(alias);
    if (!entity) throw new Error(`Query over ${this.entity.meta.className}: no entity is aliased '${alias}' to nest`);
    const prefix = `${key}__`;
    this.nested.push({ key, entity, prefix });
    const { knex } = this.shared;
    const all = this.shared.columnsOf(entity);
    const columns = properties
      ? properties.map((property) => all.get(property) ?? this.column(`${alias}.${property}`)) // an unknown property throws, naming it
      : all.values();
    const list = [...columns].map((column) => `${quote(alias)}.${quote(column)} as ${quote(prefix + column)}`);
    this.qb.select(knex.raw(list.join(', ')));
    return this;
  }
  select(...columns: (string | Record<string, string>)[]) {
    this.qb.select(...columns.map((column) => (typeof column === 'string' ? this.column(column) : this.columnsOfRecord(column))));
    return this;
  }
  selectQuery(name: string, query: Impl | AnyEntity, alias?: string, build?: (sub: Impl) => void) {
    const scalar = query instanceof QueryImpl ? query.qb.clone() : this.sub(query, alias!, build!, false);
    this.qb.select(scalar.as(name));
    return this;
  }
  selectExists(name: string, entity: AnyEntity, alias: string, build: (sub: Impl) => void) {
    // knex puts a subquery binding in parentheses itself: `exists (?)` would read `exists ((select …))`, which SQLite refuses.
    this.qb.select(this.shared.knex.raw(`case when exists ? then 1 else 0 end as ??`, [this.sub(entity, alias, build), name]));
    return this;
  }
  selectSql(name: string, expression: Sql) {
    const raw = this.raw(expression);
    const compiled = raw.toSQL();
    this.qb.select(this.shared.knex.raw(`${compiled.sql} as ??`, [...compiled.bindings, name]));
    return this;
  }
  distinct(...columns: string[]) {
    this.qb.distinct(...columns.map((column) => this.column(column)));
    return this;
  }
  count(counts: Readonly<Record<string, string>> = { count: '*' }) {
    this.qb.count(this.columnsOfRecord(counts));
    return this;
  }
  countDistinct(counts: Readonly<Record<string, string>>) {
    this.qb.countDistinct(this.columnsOfRecord(counts));
    return this;
  }
  countWhere(name: string, group: (w: Impl) => void) {
    // The group compiles to its own `where` clause; its text and bindings move into the case.
    const probe = new QueryImpl(this.shared, this.scope, this.main, this.entity, this.shared.knex.queryBuilder());
    probe.where(group);
    const compiled = probe.qb.toSQL();
    const condition = compiled.sql.slice(compiled.sql.indexOf(' where ') + ' where '.length);
    this.qb.select(this.shared.knex.raw(`count(case when ${condition} then 1 end) as ??`, [...compiled.bindings, name]));
    return this;
  }
  max(values: Readonly<Record<string, string>>) {
    this.qb.max(this.columnsOfRecord(values));
    return this;
  }
  min(values: Readonly<Record<string, string>>) {
    this.qb.min(this.columnsOfRecord(values));
    return this;
  }
  sum(values: Readonly<Record<string, string>>) {
    this.qb.sum(this.columnsOfRecord(values));
    return this;
  }
  groupBy(...columns: string[]) {
    this.qb.groupBy(...columns.map((column) => this.column(column)));
    return this;
  }
  orderBy(column: string, direction: Direction = 'asc', options?: { nulls: 'first' | 'last' }) {
    const resolved = this.column(column);
    // Written out: the engines disagree on where nulls go by default, and SQLite before 3.30 has no NULLS LAST.
    if (options) this.qb.orderByRaw(`case when ?? is null then ${options.nulls === 'last' ? 1 : 0} else ${options.nulls === 'last' ? 0 : 1} end`, [resolved]);
    this.qb.orderBy(resolved, direction);
    return this;
  }
  orderBySql(expression: Sql) {
    const compiled = this.raw(expression).toSQL();
    if (compiled.sql.trim() !== '') this.qb.orderByRaw(compiled.sql, compiled.bindings as Knex.RawBinding[]);
    return this;
  }
  subquery(entity: AnyEntity, alias: string, build: (sub: Impl) => void): Sql {
    const scope = new Map(this.scope);
    scope.set(alias, entity);
    const query = new QueryImpl(this.shared, scope, alias, entity, this.shared.knex(`${this.shared.tableOf(entity)} as ${alias}`));
    build(query);
    return new Sql(['', ''], [query]);
  }
  limit(count: number) {
    this.qb.limit(count);
    return this;
  }
  offset(count: number) {
    this.qb.offset(count);
    return this;
  }
  unionAll(query: Impl) {
    // PostgreSQL takes each query of a union in parentheses; SQLite refuses them.
    this.qb.unionAll(query.qb.clone(), this.shared.knex.client.dialect === 'postgresql');
    return this;
  }
  modify(change: (query: this) => void) {
    change(this);
    return this;
  }
  clone(): Impl {
    const copy = new QueryImpl(this.shared, new Map(this.scope), this.main, this.entity, this.qb.clone());
    copy.nested.push(...this.nested);
    return copy;
  }
  toKnex() {
    return this.qb;
  }
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export interface QueryFactory {
  /** Every column of `entity` (as `alias`, when given): a query to narrow. */
  from<E extends AnyEntity, A extends string = ''>(entity: E, alias?: A): Query<Record<A, E>, A>;
  /** Nothing selected yet (aggregates, a list of ids, a subquery): a query to narrow. */
  table<E extends AnyEntity, A extends string = ''>(entity: E, alias?: A): Query<Record<A, E>, A>;
}

export function createQueryFactory(shared: Shared): QueryFactory {
  const start = (entity: AnyEntity, alias: string | undefined, select: boolean) => {
    const name = alias ?? '';
    const table = shared.tableOf(entity);
    const qb = shared.knex(alias ? `${table} as ${alias}` : table);
    if (select) qb.select(shared.selectList(entity, alias));
    return new QueryImpl(shared, new Map([[name, entity]]), name, entity, qb) as unknown as Query<any, any>;
  };
  return {
    from: (entity, alias) => start(entity, alias, true),
    table: (entity, alias) => start(entity, alias, false),
  };
}

/** Whether a value is a query built here. */
/**
 * A query that selects one column of ids, built by one plugin and handed through its contract to
 * another plugin's `whereIn`, so that a set the database can compute is never fetched to be sent back.
 */
export type IdQuery = Query<any, any, any>;

export const isQuery = (value: unknown): value is Query<any, any> => value instanceof QueryImpl;
