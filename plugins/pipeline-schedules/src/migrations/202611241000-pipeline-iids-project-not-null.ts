import type { PluginMigration } from '@forgekit/kernel/orm';

/** SQLite left the counter's primary key nullable; on PostgreSQL this changes nothing. */
export const pipelineIidsProjectNotNull: PluginMigration = {
  name: '202611241000-pipeline-iids-project-not-null',
  async up(knex) {
    await knex.schema.alterTable('ci_pipeline_iids', (t) => {
      t.integer('project_id').notNullable().alter();
    });
  },
};
