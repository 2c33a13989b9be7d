import type { PluginMigration } from '@forgekit/kernel/orm';

export const awardEmojiAndDiscussions: PluginMigration = {
  name: '202611271100-award-emoji-and-discussions',
  async up(knex) {
    await knex.schema.createTable('award_emoji', (t) => {
      t.increments('id');
      t.string('name', 255).notNullable();
      t.integer('user_id').notNullable();
      t.string('awardable_type', 32).notNullable();
      t.integer('awardable_id').notNullable();
      t.integer('project_id');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['awardable_type', 'awardable_id']);
      t.index(['project_id']);
      t.index(['user_id']);
      t.unique(['awardable_type', 'awardable_id', 'user_id', 'name']);
    });
    await knex.schema.alterTable('notes', (t) => {
      t.index(['discussion_id']);
      t.index(['author_id']);
    });
  },
};
