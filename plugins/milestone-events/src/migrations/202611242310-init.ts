import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611242310-init',
  async up(knex) {
    await knex.schema.createTable('resource_milestone_events', (t) => {
      t.increments('id');
      t.string('resource_type', 32).notNullable();
      t.integer('resource_id').notNullable();
      t.integer('project_id').notNullable();
      t.integer('user_id');
      t.integer('milestone_id').notNullable();
      t.string('action', 8).notNullable();
      t.string('state', 16).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.index(['resource_type', 'resource_id']);
      t.index(['milestone_id']);
      t.index(['project_id']);
    });
  },
};
