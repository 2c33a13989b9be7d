import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611271000-init',
  async up(knex) {
    await knex.schema.createTable('user_follow_users', (t) => {
      t.increments('id');
      t.integer('follower_id').notNullable();
      t.integer('followee_id').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.unique(['follower_id', 'followee_id']);
      t.index(['followee_id']);
    });
  },
};
