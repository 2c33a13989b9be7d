import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611220510-init',
  async up(knex) {
    await knex.schema.createTable('users', (t) => {
      t.increments('id');
      t.string('username', 255).notNullable().unique();
      t.string('name', 255).notNullable();
      t.string('email', 255).notNullable().unique();
      t.string('password_hash', 255);
      t.string('state', 32).notNullable().defaultTo('active');
      t.boolean('admin').notNullable().defaultTo(false);
      t.boolean('external').notNullable().defaultTo(false);
      t.boolean('bot').notNullable().defaultTo(false);
      t.boolean('private_profile').notNullable().defaultTo(false);
      t.boolean('can_create_group').notNullable().defaultTo(true);
      t.integer('projects_limit').notNullable().defaultTo(100000);
      t.string('bio', 255).notNullable().defaultTo('');
      t.string('location', 255).notNullable().defaultTo('');
      t.string('public_email', 255);
      t.string('website_url', 255).notNullable().defaultTo('');
      t.string('organization', 255).notNullable().defaultTo('');
      t.string('job_title', 255).notNullable().defaultTo('');
      t.string('pronouns', 50);
      t.string('note', 1000);
      t.integer('namespace_id');
      t.integer('created_by_id');
      t.timestamp('confirmed_at', { useTz: true });
      t.string('last_activity_on', 10);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
    await knex.schema.createTable('namespaces', (t) => {
      t.increments('id');
      t.string('name', 255).notNullable();
      t.string('path', 255).notNullable();
      t.string('kind', 16).notNullable();
      t.integer('parent_id').references('id').inTable('namespaces').onDelete('CASCADE');
      t.string('full_path', 1024).notNullable().unique();
      /** `Parent Name / Child Name`, kept beside full_path. */
      t.string('full_name', 2048).notNullable();
      /** `/1/5/9/`: the ids from the root down, so descendants match `LIKE '/1/5/%'`. */
      t.string('traversal_path', 1024).notNullable();
      t.integer('owner_id');
      t.integer('visibility_level').notNullable().defaultTo(0);
      t.string('description', 2000).notNullable().defaultTo('');
      t.text('settings').notNullable().defaultTo('{}');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['parent_id']);
      t.index(['traversal_path']);
    });
    await knex.schema.createTable('projects', (t) => {
      t.increments('id');
      t.string('name', 255).notNullable();
      t.string('path', 255).notNullable();
      t.integer('namespace_id').notNullable().references('id').inTable('namespaces').onDelete('CASCADE');
      t.string('description', 2000).notNullable().defaultTo('');
      t.integer('visibility_level').notNullable().defaultTo(0);
      t.string('default_branch', 255);
      t.string('repository_storage', 255).notNullable().defaultTo('default');
      t.integer('creator_id');
      t.boolean('archived').notNullable().defaultTo(false);
      t.text('topics').notNullable().defaultTo('[]');
      t.text('settings').notNullable().defaultTo('{}');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.timestamp('last_activity_at', { useTz: true }).notNullable();
      t.unique(['namespace_id', 'path']);
      t.index(['repository_storage']);
      t.index(['created_at']);
    });
    await knex.schema.createTable('members', (t) => {
      t.increments('id');
      /** `Project` or `Namespace`, as GitLab names member sources. */
      t.string('source_type', 16).notNullable();
      t.integer('source_id').notNullable();
      t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
      t.integer('access_level').notNullable();
      t.string('expires_at', 10);
      t.integer('created_by_id');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['source_type', 'source_id', 'user_id']);
      t.index(['user_id']);
    });
    await knex.schema.createTable('personal_access_tokens', (t) => {
      t.increments('id');
      t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
      t.string('name', 255).notNullable();
      t.string('description', 255);
      t.string('token_digest', 64).notNullable().unique();
      t.text('scopes').notNullable();
      t.boolean('revoked').notNullable().defaultTo(false);
      t.string('expires_at', 10);
      t.timestamp('last_used_at', { useTz: true });
      t.integer('previous_token_id');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['user_id']);
    });
    await knex.schema.createTable('application_settings', (t) => {
      t.string('key', 255).primary();
      t.text('value').notNullable();
    });
  },
  async down(knex) {
    for (const table of ['application_settings', 'personal_access_tokens', 'members', 'projects', 'namespaces', 'users']) {
      await knex.schema.dropTableIfExists(table);
    }
  },
};
