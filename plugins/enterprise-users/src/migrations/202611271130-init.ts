import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611271130-init',
  async up(knex) {
    await knex.schema.createTable('user_two_factors', (t) => {
      t.increments('id');
      t.integer('user_id').notNullable().unique();
      t.text('sealed_secret').notNullable();
      t.timestamp('enabled_at', { useTz: true }).nullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
    await knex.schema.createTable('enterprise_user_claims', (t) => {
      t.increments('id');
      t.integer('user_id').notNullable().unique();
      t.integer('group_id').notNullable();
      t.string('reason', 32).notNullable();
      t.string('domain', 255).nullable();
      t.timestamp('claimed_at', { useTz: true }).notNullable();
      t.index(['group_id']);
    });
  },
};
