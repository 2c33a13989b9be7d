import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611231000-init',
  async up(knex) {
    await knex.schema.createTable('repositories', (t) => {
      t.increments('id');
      /** `project`, `wiki` (a project's wiki), `snippet` or `group_wiki`. */
      t.string('container_type', 32).notNullable();
      t.integer('container_id').notNullable();
      t.string('storage', 255).notNullable().index();
      /** Relative to the storage's directory. */
      t.string('disk_path', 512).notNullable();
      /** Set while a storage move runs: every write path refuses. */
      t.boolean('read_only').notNullable().defaultTo(false);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['container_type', 'container_id']);
    });
  },
};
