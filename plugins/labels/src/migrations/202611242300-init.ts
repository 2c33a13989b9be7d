import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611242300-init',
  async up(knex) {
    await knex.schema.createTable('labels', (t) => {
      t.increments('id');
      t.string('owner_type', 16).notNullable();
      t.integer('owner_id').notNullable();
      t.string('title', 255).notNullable();
      t.string('color', 7).notNullable();
      t.text('description');
      t.boolean('archived').notNullable().defaultTo(false);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['owner_type', 'owner_id', 'title']);
      t.index(['title']);
    });
    await knex.schema.createTable('label_priorities', (t) => {
      t.increments('id');
      t.integer('project_id').notNullable();
      t.integer('label_id').notNullable();
      t.integer('priority').notNullable();
      t.unique(['project_id', 'label_id']);
      t.index(['label_id']);
    });
    await knex.schema.createTable('label_subscriptions', (t) => {
      t.increments('id');
      t.integer('label_id').notNullable();
      t.integer('user_id').notNullable();
      t.integer('project_id').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.unique(['label_id', 'user_id', 'project_id']);
      t.index(['user_id']);
      t.index(['project_id']);
    });
  },
};
