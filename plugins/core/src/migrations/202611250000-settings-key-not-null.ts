import type { PluginMigration } from '@forgekit/kernel/orm';

/**
 * SQLite lets a text primary key hold NULL unless the column says NOT NULL (PostgreSQL
 * always does). No table refers to application_settings, so rebuilding it is safe.
 */
export const settingsKeyNotNull: PluginMigration = {
  name: '202611250000-settings-key-not-null',
  async up(knex) {
    if (knex.client.dialect === 'postgresql') return;
    await knex.schema.alterTable('application_settings', (t) => {
      t.string('key', 255).notNullable().alter();
    });
  },
};
