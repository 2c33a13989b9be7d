import type { PluginMigration } from '@forgekit/kernel/orm';

/** Every flag is written with its version; the column keeps no default (SQLite kept it as text). */
export const flagVersionNoDefault: PluginMigration = {
  name: '202611241000-flag-version-no-default',
  async up(knex) {
    await knex.schema.alterTable('feature_flags', (t) => {
      t.integer('version').notNullable().defaultTo(null).alter();
    });
  },
};
