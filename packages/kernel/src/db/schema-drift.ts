/**
 * Where a migrated database differs from what its entities describe. Migrations are
 * written by hand with knex's schema builder; entities are the description every read
 * and write goes through; this keeps the two equal, on both engines.
 */
import type { EntitySchema, MikroORM } from '@mikro-orm/core';
import { internalsOf } from './internals.js';
import type { Database } from './open-database.js';
import { DatabaseSchema, SchemaComparator, type AbstractSqlConnection, type AbstractSqlPlatform, type SqlSchemaGenerator } from '@mikro-orm/knex';

/** knex writes SQLite boolean defaults as '0'/'1'; MikroORM describes them as false/true. The same default. */
const SAME_DEFAULTS: readonly (readonly [string, string])[] = [
  ["'0'", 'false'],
  ["'1'", 'true'],
];

/** knex quotes a number default on SQLite (`'0'`); MikroORM describes it as `0`. The same default. */
const unquotedNumber = (value: unknown) => (typeof value === 'string' && /^'-?\d+(\.\d+)?'$/.test(value) ? value.slice(1, -1) : value);

const sameDefault = (from: unknown, to: unknown) =>
  from === to || unquotedNumber(from) === unquotedNumber(to) || SAME_DEFAULTS.some(([a, b]) => (from === a && to === b) || (from === b && to === a));

/** One line per difference, `table.column: what differs`; empty when the schema is what the entities say. */
/** Where the database differs from what `entities` describe, a line per difference (none: no drift). */
export function schemaDrift(database: Database, entities: readonly EntitySchema<any, any>[]): Promise<string[]> {
  return driftOf(internalsOf(database).orm, entities);
}

async function driftOf(orm: MikroORM, entities: readonly EntitySchema<any, any>[]): Promise<string[]> {
  const tables = new Set(entities.map((entity) => entity.meta.tableName ?? entity.meta.collection));
  const platform = orm.em.getPlatform() as unknown as AbstractSqlPlatform;
  const connection = orm.em.getConnection() as unknown as AbstractSqlConnection;
  const generator = orm.getSchemaGenerator() as unknown as SqlSchemaGenerator;
  const from = await DatabaseSchema.create(connection, platform, orm.config);
  const to = generator.getTargetSchema();
  const diff = new SchemaComparator(platform).compare(from, to);
  const lines: string[] = [];
  // PostgreSQL names tables with their schema (`public.users`).
  const ours = (qualified: string) => tables.has(qualified.slice(qualified.lastIndexOf('.') + 1));
  const bare = (qualified: string) => qualified.slice(qualified.lastIndexOf('.') + 1);
  for (const name of Object.keys(diff.newTables)) if (ours(name)) lines.push(`${bare(name)}: described by an entity but not created by a migration`);
  for (const [qualified, table] of Object.entries(diff.changedTables)) {
    if (!ours(qualified)) continue;
    const name = bare(qualified);
    for (const column of Object.keys(table.addedColumns)) lines.push(`${name}.${column}: described but not migrated`);
    for (const column of Object.keys(table.removedColumns)) lines.push(`${name}.${column}: migrated but not described`);
    for (const [column, change] of Object.entries(table.changedColumns)) {
      const changed = [...change.changedProperties].filter(
        (property) => property !== 'default' || !sameDefault(change.fromColumn.default, change.column.default),
      );
      for (const property of changed) {
        const was = (change.fromColumn as unknown as Record<string, unknown>)[property];
        const described = (change.column as unknown as Record<string, unknown>)[property];
        lines.push(`${name}.${column}: ${property} is ${JSON.stringify(was)} in the database, ${JSON.stringify(described)} in the entity`);
      }
    }
    for (const index of Object.values(table.addedIndexes))
      lines.push(`${name}: index ${index.keyName} (${index.columnNames.join(', ')}) described but not migrated`);
    for (const index of Object.values(table.removedIndexes))
      lines.push(`${name}: index ${index.keyName} (${index.columnNames.join(', ')}) migrated but not described`);
    for (const index of Object.values(table.changedIndexes)) lines.push(`${name}: index ${index.keyName} differs`);
  }
  return lines;
}
