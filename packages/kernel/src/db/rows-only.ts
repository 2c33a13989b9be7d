import type { Knex } from '@mikro-orm/knex';

/**
 * The query's rows with nothing selected but `1`, unordered: all that `exists` and
 * `count(*)` need. An entity's full select list would be parsed and resolved for nothing.
 */
export const rowsOnly = (knex: Knex, query: Knex.QueryBuilder): Knex.QueryBuilder => query.clone().clearSelect().clearOrder().select(knex.raw('1'));
