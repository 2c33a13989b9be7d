import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611221200-init',
  async up(knex) {
    await knex.schema.createTable('feature_flags', (t) => {
      t.increments('id');
      t.integer('project_id').notNullable();
      t.string('name', 255).notNullable();
      t.text('description');
      t.boolean('active').notNullable().defaultTo(true);
      /** 2 is `new_version_flag`, the only version that can still be created. */
      t.integer('version').notNullable().defaultTo(2);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['project_id', 'name']);
    });
    await knex.schema.createTable('feature_flag_user_lists', (t) => {
      t.increments('id');
      t.integer('project_id').notNullable();
      t.integer('iid').notNullable();
      t.string('name', 255).notNullable();
      t.text('user_xids').notNullable().defaultTo('');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['project_id', 'iid']);
      t.unique(['project_id', 'name']);
    });
    await knex.schema.createTable('feature_flag_strategies', (t) => {
      t.increments('id');
      t.integer('feature_flag_id').notNullable().references('id').inTable('feature_flags').onDelete('CASCADE');
      t.string('name', 255).notNullable();
      /** A JSON object. */
      t.text('parameters').notNullable().defaultTo('{}');
      /** Only `serviceUserList` strategies have one; a list in use cannot be deleted. */
      t.integer('user_list_id').references('id').inTable('feature_flag_user_lists');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['feature_flag_id']);
      t.index(['user_list_id']);
    });
    await knex.schema.createTable('feature_flag_scopes', (t) => {
      t.increments('id');
      t.integer('strategy_id').notNullable().references('id').inTable('feature_flag_strategies').onDelete('CASCADE');
      t.text('environment_scope').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['strategy_id']);
    });
    /** The Unleash client credential of each project (its "instance id"). */
    await knex.schema.createTable('feature_flags_clients', (t) => {
      t.increments('id');
      t.integer('project_id').notNullable().unique();
      t.string('token', 64).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
    /** Per-project counters for internal ids, never reused after a delete. */
    await knex.schema.createTable('feature_flag_internal_ids', (t) => {
      t.integer('project_id').notNullable();
      t.string('usage', 32).notNullable();
      t.integer('last_value').notNullable();
      t.primary(['project_id', 'usage']);
    });
  },
};
