import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611271100-init',
  async up(knex) {
    await knex.schema.createTable('project_aliases', (t) => {
      t.increments('id');
      t.integer('project_id').notNullable();
      t.string('name', 255).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['name']);
      t.index(['project_id']);
    });
  },
};
