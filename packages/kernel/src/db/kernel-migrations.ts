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
];
