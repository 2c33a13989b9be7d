import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611221200-init',
  async up(knex) {
    await knex.schema.createTable('plan_limit_overrides', (t) => {
      t.string('plan_name', 64).notNullable();
      t.string('name', 128).notNullable();
      t.bigInteger('value').notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.primary(['plan_name', 'name']);
    });
  },
};
