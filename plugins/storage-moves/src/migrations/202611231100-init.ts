import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611231100-init',
  async up(knex) {
    await knex.schema.createTable('repository_storage_moves', (t) => {
      t.increments('id');
      /** `project`, `snippet` or `group`. */
      t.string('container_type', 16).notNullable();
      t.integer('container_id').notNullable();
      /** GitLab's state values: 1 initial … 7 cleanup failed. */
      t.integer('state').notNullable();
      t.string('source_storage_name', 255).notNullable();
      t.string('destination_storage_name', 255).notNullable();
      t.text('error_message');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['container_type', 'container_id']);
      t.index(['container_type', 'created_at']);
      t.index(['state']);
    });
  },
};
