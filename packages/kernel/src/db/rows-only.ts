import type { Knex } from '@mikro-orm/knex';

/**
 * The query's rows with nothing selected but `1`, unordered: all that `exists` and
 * `count(*)` need. An entity's full select list would be parsed and resolved for nothing.
 */
export const rowsOnly = (knex: Knex, query: Knex.QueryBuilder): Knex.QueryBuilder => query.clone().clearSelect().clearOrder().select(knex.raw('1'));

/** `select count(*) as n from (<the query's rows>) as counted`. */
export const countRows = (knex: Knex, query: Knex.QueryBuilder): Knex.QueryBuilder => knex.count({ n: '*' }).from(rowsOnly(knex, query).as('counted'));
