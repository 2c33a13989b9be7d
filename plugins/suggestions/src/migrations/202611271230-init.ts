import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611271230-init',
  async up(knex) {
    await knex.schema.createTable('suggestions', (t) => {
      t.increments('id');
      t.integer('note_id').notNullable();
      t.integer('merge_request_id').notNullable().index();
      t.integer('project_id').notNullable().index();
      t.integer('relative_order').notNullable();
      t.text('file_path').notNullable();
      t.integer('from_line').notNullable();
      t.integer('to_line').notNullable();
      t.boolean('single_line').notNullable();
      t.text('from_content').notNullable();
      t.text('to_content').notNullable();
      t.boolean('applied').notNullable().defaultTo(false);
      t.string('commit_id', 64);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      // One row per block of a note; also serves lookups by note.
      t.unique(['note_id', 'relative_order']);
    });
  },
};
