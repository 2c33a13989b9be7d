import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611271100-init',
  async up(knex) {
    await knex.schema.createTable('snippets', (t) => {
      t.increments('id');
      t.string('title', 255).notNullable();
      t.text('description');
      t.integer('visibility_level').notNullable();
      t.integer('author_id').notNullable();
      t.integer('project_id');
      t.string('file_name', 4096);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['author_id']);
      t.index(['project_id']);
      t.index(['visibility_level']);
    });
  },
};
