/**
 * The ORM surface plugins use. Plugins import MikroORM only through here, so one
 * copy of it (and one instance) serves every plugin.
 */
export { defineEntity, EntitySchema, MikroORM, EntityManager } from '@mikro-orm/core';
export type { EntityName, FilterQuery, RequiredEntityData, Loaded } from '@mikro-orm/core';
export type { Knex } from '@mikro-orm/knex';
export type { PluginMigration } from './db/migrate.js';
export { recordId, nextInternalId, MAX_RECORD_ID, MAX_CHOSEN_IID, INTEGER_COLUMN, type IntegerRange } from './db/values.js';
export { containsText } from './db/text-match.js';
export { idListReads } from './db/id-list-reads.js';
export { mergeLinks, type LinkMerge } from './db/merge-links.js';
export { schemaDrift } from './db/schema-drift.js';
export { isUniqueViolation, unlessTaken } from './db/entity-writes.js';
export type { Rows, PreparedRead, ReadOptions, ValueKind, ValueRow } from './db/entity-reads.js';
export type { Joined } from './db/entity-rows.js';
export type { InferEntity } from '@mikro-orm/core';
export {
  sql,
  ref,
  type Query,
  type Conditions,
  type Ref,
  type RowOf,
  type Value,
  type Operator,
  type Direction,
  type AnyEntity,
  type PropOf,
  type Picked,
} from './db/query.js';
export type { RowData, Where, Guard, PreparedGuardSpec } from './db/writes.js';
