import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611231000-init',
  async up(knex) {
    await knex.schema.createTable('ci_pipeline_schedules', (t) => {
      t.increments('id');
      t.integer('project_id').notNullable();
      t.integer('owner_id');
      t.text('description').notNullable();
      /** Always a full ref: `refs/heads/<name>` or `refs/tags/<name>`. */
      t.text('ref').notNullable();
      t.text('cron').notNullable();
      /** Exactly as sent: a Rails zone name or an IANA name. */
      t.text('cron_timezone').notNullable();
      t.timestamp('next_run_at', { useTz: true }).notNullable();
      t.boolean('active').notNullable().defaultTo(true);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['project_id']);
      t.index(['active', 'next_run_at']);
    });
    await knex.schema.createTable('ci_pipeline_schedule_variables', (t) => {
      t.increments('id');
      t.integer('pipeline_schedule_id').notNullable().references('id').inTable('ci_pipeline_schedules').onDelete('CASCADE');
      t.string('key', 255).notNullable();
      t.text('value').notNullable();
      t.string('variable_type', 16).notNullable().defaultTo('env_var');
      t.boolean('raw').notNullable().defaultTo(false);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['pipeline_schedule_id', 'key']);
    });
    await knex.schema.createTable('ci_pipeline_schedule_inputs', (t) => {
      t.increments('id');
      t.integer('pipeline_schedule_id').notNullable().references('id').inTable('ci_pipeline_schedules').onDelete('CASCADE');
      t.string('name', 255).notNullable();
      /** JSON: a string, number, boolean or array. */
      t.text('value').notNullable();
      t.unique(['pipeline_schedule_id', 'name']);
    });
    await knex.schema.createTable('ci_pipelines', (t) => {
      t.increments('id');
      t.integer('project_id').notNullable();
      t.integer('iid').notNullable();
      t.integer('pipeline_schedule_id');
      t.integer('user_id');
      t.string('status', 32).notNullable();
      t.string('source', 32).notNullable();
      /** The short name (`main`); `tag` tells branches from tags. */
      t.text('ref').notNullable();
      t.boolean('tag').notNullable().defaultTo(false);
      t.string('sha', 64);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['project_id', 'iid']);
      t.index(['pipeline_schedule_id']);
    });
    /** The last pipeline iid handed out per project. */
    await knex.schema.createTable('ci_pipeline_iids', (t) => {
      t.integer('project_id').primary();
      t.integer('last_iid').notNullable();
    });
  },
};
