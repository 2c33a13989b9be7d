import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611242300-init',
  async up(knex) {
    await knex.schema.createTable('milestones', (t) => {
      t.increments('id');
      t.integer('iid').notNullable();
      t.integer('project_id');
      t.integer('group_id');
      t.string('title', 255).notNullable();
      t.text('description');
      t.string('state', 16).notNullable().defaultTo('active');
      t.date('due_date');
      t.date('start_date');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['project_id', 'iid']);
      t.unique(['group_id', 'iid']);
      t.index(['title']);
    });
  },
};
