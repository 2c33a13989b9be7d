import type { PluginMigration } from '@forgekit/kernel/orm';

/** Profile fields GitLab allows 500 characters in. */
const WIDENED = ['location', 'website_url', 'organization'];

export const widenProfileFields: PluginMigration = {
  name: '202611241000-widen-profile-fields',
  async up(knex) {
    // SQLite keeps text of any length in a varchar column, and altering a column there rebuilds
    // `users`, which the tables that refer to it would not survive.
    if (knex.client.dialect !== 'postgresql') return;
    await knex.schema.alterTable('users', (t) => {
      for (const column of WIDENED) t.string(column, 500).notNullable().defaultTo('').alter();
    });
  },
};
