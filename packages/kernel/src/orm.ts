/**
 * The data surface plugins use: entity definitions (MikroORM's `defineEntity`, through here
 * so one copy of MikroORM serves every plugin), migrations, and the property-named query
 * builder's types. Reads and writes themselves are methods of the kernel's `Database`.
 */
export { defineEntity, EntitySchema } from '@mikro-orm/core';
export type { PluginMigration } from './db/migrate.js';
export { recordId, nextInternalId, MAX_RECORD_ID, MAX_CHOSEN_IID, INTEGER_COLUMN, type IntegerRange } from './db/values.js';
export { allocateInternalId, InternalIdEntity, releaseInternalIds, type InternalIdScope } from './db/internal-ids.js';
export { mergeLinks, type LinkMerge } from './db/merge-links.js';
export { filterParams, type FilterParams } from './db/filter-params.js';
export { readsByShape } from './db/reads-by-shape.js';
export { NULL_TERM, nullsLastTerm, sortedTerm, sqlJoined } from './db/order-terms.js';
export { schemaDrift } from './db/schema-drift.js';
export { isUniqueViolation, unlessTaken } from './db/entity-writes.js';
export type { PreparedRead, ValueKind, ValueRow } from './db/entity-reads.js';
export type { InferEntity } from '@mikro-orm/core';
export {
  sql,
  ref,
  type Query,
  type IdQuery,
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
