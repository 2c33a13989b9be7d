import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611271110-init',
  async up(knex) {
    await knex.schema.createTable('wiki_page_meta', (t) => {
      t.increments('id');
      t.integer('project_id').notNullable();
      t.string('slug', 2048).notNullable();
      t.string('title', 255).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      // One record per page; also serves the lookups of a project's pages.
      t.unique(['project_id', 'slug']);
    });
  },
};
