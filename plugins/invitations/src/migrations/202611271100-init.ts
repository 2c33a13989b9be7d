import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611271100-init',
  async up(knex) {
    await knex.schema.createTable('invitations', (t) => {
      t.increments('id');
      t.string('source_type', 16).notNullable();
      t.integer('source_id').notNullable();
      t.string('invite_email', 255).notNullable();
      t.integer('access_level').notNullable();
      t.string('expires_at', 10);
      t.string('token_digest', 64).notNullable();
      t.string('invite_source', 255).notNullable();
      t.integer('created_by_id');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['source_type', 'source_id', 'invite_email']);
      t.unique(['token_digest']);
      t.index(['invite_email']);
    });
  },
};
