import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611242310-init',
  async up(knex) {
    await knex.schema.createTable('issues', (t) => {
      t.increments('id');
      t.integer('project_id').notNullable();
      t.integer('iid').notNullable();
      t.string('title', 255).notNullable();
      t.text('description');
      t.string('state', 16).notNullable().defaultTo('opened');
      t.boolean('confidential').notNullable().defaultTo(false);
      t.boolean('discussion_locked');
      t.integer('author_id').notNullable();
      t.integer('milestone_id');
      t.integer('iteration_id');
      t.date('due_date');
      t.timestamp('closed_at', { useTz: true });
      t.integer('closed_by_id');
      t.integer('updated_by_id');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['project_id', 'iid']);
      t.index(['author_id']);
      t.index(['milestone_id']);
    });
    await knex.schema.createTable('issue_assignees', (t) => {
      t.increments('id');
      t.integer('issue_id').notNullable().references('id').inTable('issues').onDelete('CASCADE');
      t.integer('user_id').notNullable();
      t.unique(['issue_id', 'user_id']);
      t.index(['user_id']);
    });
    await knex.schema.createTable('issue_labels', (t) => {
      t.increments('id');
      t.integer('issue_id').notNullable().references('id').inTable('issues').onDelete('CASCADE');
      t.integer('label_id').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.unique(['issue_id', 'label_id']);
      t.index(['label_id']);
    });
  },
};
