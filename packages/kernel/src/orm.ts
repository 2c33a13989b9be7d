/**
 * The ORM surface plugins use. Plugins import MikroORM only through here, so one
 * copy of it (and one instance) serves every plugin.
 */
export { defineEntity, EntitySchema, MikroORM, EntityManager, wrap, ref, Reference } from '@mikro-orm/core';
export type { EntityName, FilterQuery, RequiredEntityData, Loaded } from '@mikro-orm/core';
export type { Knex } from '@mikro-orm/knex';
export type { PluginMigration } from './db/migrate.js';
export { toIso, toBool, toDate, parseJsonArray } from './db/values.js';
