import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611221200-init',
  async up(knex) {
    await knex.schema.createTable('ci_runners', (t) => {
      t.increments('id');
      t.string('runner_type', 16).notNullable();
      /** `registration_token` (legacy registration) or `authenticated_user` (created through the API). */
      t.string('registration_type', 32).notNullable();
      t.string('token_digest', 64).notNullable().unique();
      t.timestamp('token_expires_at', { useTz: true });
      t.string('name', 256);
      t.string('description', 1024);
      t.boolean('active').notNullable().defaultTo(true);
      t.boolean('run_untagged').notNullable().defaultTo(true);
      t.boolean('locked').notNullable().defaultTo(false);
      t.string('access_level', 16).notNullable().defaultTo('not_protected');
      t.integer('maximum_timeout');
      t.string('maintenance_note', 1024);
      t.timestamp('contacted_at', { useTz: true });
      t.integer('creator_id');
      /** The owning group of a group runner. */
      t.integer('group_id').index();
      /** The owning project of a project runner (the first it was assigned to). */
      t.integer('owner_project_id').index();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
    await knex.schema.createTable('ci_runner_projects', (t) => {
      t.increments('id');
      t.integer('runner_id').notNullable().references('id').inTable('ci_runners').onDelete('CASCADE');
      t.integer('project_id').notNullable().index();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['runner_id', 'project_id']);
    });
    await knex.schema.createTable('ci_runner_tags', (t) => {
      t.increments('id');
      t.integer('runner_id').notNullable().references('id').inTable('ci_runners').onDelete('CASCADE');
      t.string('name', 255).notNullable();
      t.unique(['runner_id', 'name']);
      t.index(['name']);
    });
    await knex.schema.createTable('ci_runner_managers', (t) => {
      t.increments('id');
      t.integer('runner_id').notNullable().references('id').inTable('ci_runners').onDelete('CASCADE');
      t.string('system_xid', 64).notNullable();
      t.string('version', 2048);
      t.string('revision', 255);
      t.string('platform', 255);
      t.string('architecture', 255);
      t.string('ip_address', 1024);
      t.timestamp('contacted_at', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['runner_id', 'system_xid']);
    });
    await knex.schema.createTable('ci_runner_registration_tokens', (t) => {
      t.increments('id');
      /** `instance`, `group` or `project`; `scope_id` is 0 for the instance. */
      t.string('scope', 16).notNullable();
      t.integer('scope_id').notNullable();
      t.string('token_digest', 64).notNullable().unique();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.unique(['scope', 'scope_id']);
    });
  },
};
