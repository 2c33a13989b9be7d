import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611271100-init',
  async up(knex) {
    await knex.schema.createTable('pages_domains', (t) => {
      t.increments('id');
      t.integer('project_id').notNullable();
      t.string('domain', 255).notNullable().unique();
      t.text('certificate').nullable();
      t.text('sealed_key').nullable();
      t.string('certificate_source', 32).notNullable().defaultTo('user_provided');
      t.boolean('auto_ssl_enabled').notNullable().defaultTo(false);
      t.string('verification_code', 32).notNullable();
      t.timestamp('verified_at', { useTz: true }).nullable();
      t.timestamp('enabled_until', { useTz: true }).nullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['project_id']);
    });
  },
};
