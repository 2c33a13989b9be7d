import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611242300-init',
  async up(knex) {
    await knex.schema.createTable('notes', (t) => {
      t.increments('id');
      t.string('noteable_type', 32).notNullable();
      t.integer('noteable_id').notNullable();
      t.integer('noteable_iid');
      t.integer('project_id');
      t.integer('author_id').notNullable();
      t.text('body').notNullable();
      t.boolean('system').notNullable().defaultTo(false);
      t.boolean('internal').notNullable().defaultTo(false);
      t.string('type', 32);
      t.string('discussion_id', 40);
      t.text('position');
      t.string('line_code', 255);
      t.string('commit_id', 64);
      t.boolean('resolvable').notNullable().defaultTo(false);
      t.timestamp('resolved_at', { useTz: true });
      t.integer('resolved_by_id');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['noteable_type', 'noteable_id']);
      t.index(['project_id']);
    });
  },
};
