import type { PluginMigration } from '@forgekit/kernel/orm';

/** A project's issues in the default list order (newest first), read without sorting the rows. */
export const projectOrderIndex: PluginMigration = {
  name: '202611250300-project-order-index',
  async up(knex) {
    await knex.schema.alterTable('issues', (t) => {
      t.index(['project_id', 'created_at', 'id']);
    });
  },
};
