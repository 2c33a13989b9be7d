import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611271100-init',
  async up(knex) {
    await knex.schema.createTable('merge_requests', (t) => {
      t.increments('id');
      t.integer('project_id').notNullable();
      t.integer('iid').notNullable();
      t.string('title', 255).notNullable();
      t.text('description');
      t.string('state', 16).notNullable().defaultTo('opened');
      t.boolean('draft').notNullable().defaultTo(false);
      t.string('source_branch', 255).notNullable();
      t.string('target_branch', 255).notNullable();
      t.integer('author_id').notNullable();
      t.integer('milestone_id');
      t.boolean('discussion_locked');
      t.boolean('squash').notNullable().defaultTo(false);
      t.boolean('force_remove_source_branch').notNullable().defaultTo(false);
      t.string('head_sha', 40);
      t.string('base_sha', 40);
      t.string('start_sha', 40);
      t.string('merge_commit_sha', 40);
      t.string('squash_commit_sha', 40);
      t.integer('merged_by_id');
      t.timestamp('merged_at', { useTz: true });
      t.integer('closed_by_id');
      t.timestamp('closed_at', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['project_id', 'iid']);
      t.index(['author_id']);
      t.index(['milestone_id']);
      t.index(['project_id', 'source_branch', 'state']);
      t.index(['created_at', 'id']);
    });
    await knex.schema.createTable('merge_request_users', (t) => {
      t.increments('id');
      t.integer('merge_request_id').notNullable().references('id').inTable('merge_requests').onDelete('CASCADE');
      t.string('role', 16).notNullable();
      t.integer('user_id').notNullable();
      t.unique(['merge_request_id', 'role', 'user_id']);
      t.index(['user_id']);
    });
    await knex.schema.createTable('merge_request_labels', (t) => {
      t.increments('id');
      t.integer('merge_request_id').notNullable().references('id').inTable('merge_requests').onDelete('CASCADE');
      t.integer('label_id').notNullable();
      t.unique(['merge_request_id', 'label_id']);
      t.index(['label_id']);
    });
    await knex.schema.createTable('merge_request_versions', (t) => {
      t.increments('id');
      t.integer('merge_request_id').notNullable().references('id').inTable('merge_requests').onDelete('CASCADE');
      t.string('head_commit_sha', 40).notNullable();
      t.string('base_commit_sha', 40);
      t.string('start_commit_sha', 40);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.index(['merge_request_id']);
    });
  },
};
