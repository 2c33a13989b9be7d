import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611270900-init',
  async up(knex) {
    await knex.schema.createTable('keys', (t) => {
      t.increments('id');
      t.string('kind', 16).notNullable();
      t.integer('user_id');
      t.string('title', 255).notNullable();
      t.text('key').notNullable();
      t.string('fingerprint', 64);
      t.string('fingerprint_sha256', 64).notNullable();
      t.string('usage_type', 32).notNullable().defaultTo('auth_and_signing');
      t.boolean('public').notNullable().defaultTo(false);
      t.timestamp('expires_at', { useTz: true });
      t.timestamp('last_used_at', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['fingerprint_sha256']);
      t.index(['user_id']);
      t.index(['fingerprint']);
    });
    await knex.schema.createTable('deploy_keys_projects', (t) => {
      t.increments('id');
      t.integer('deploy_key_id').notNullable();
      t.integer('project_id').notNullable();
      t.boolean('can_push').notNullable().defaultTo(false);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['project_id', 'deploy_key_id']);
      t.index(['deploy_key_id']);
    });
  },
};
