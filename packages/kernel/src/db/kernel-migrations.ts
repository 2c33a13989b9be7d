import type { PluginMigration } from './migrate.js';

/** Tables the kernel itself owns. */
export const kernelMigrations: PluginMigration[] = [
  {
    name: '202611220500-rate-limits',
    async up(knex) {
      // The layout rate-limiter-flexible's PostgreSQL store expects.
      await knex.schema.createTable('rate_limits', (table) => {
        table.string('key', 255).primary();
        table.integer('points').notNullable().defaultTo(0);
        table.bigInteger('expire');
      });
    },
  },
  {
    name: '202611241000-secrets-key-check',
    async up(knex) {
      // One row (id 1): a check of the key the database's secrets are sealed with, never the key.
      await knex.schema.createTable('secrets_key_check', (table) => {
        table.integer('id').primary();
        table.string('key_check', 64).notNullable();
        table.timestamp('created_at', { useTz: true }).notNullable();
      });
    },
  },
  {
    name: '202611271500-internal-ids',
    async up(knex) {
      // The last iid handed out per usage and scope, GitLab's `internal_ids` (see internal-ids.ts).
      await knex.schema.createTable('internal_ids', (table) => {
        table.increments('id').primary();
        table.string('usage', 64).notNullable();
        table.integer('scope_id').notNullable();
        table.integer('last_value').notNullable();
        table.unique(['usage', 'scope_id']);
      });
    },
  },
];
