import type { PluginMigration } from '@forgekit/kernel/orm';

export const deliveries: PluginMigration = {
  name: '202611271400-deliveries',
  async up(knex) {
    await knex.schema.createTable('web_hook_deliveries', (t) => {
      t.increments('id');
      t.integer('hook_id').notNullable();
      t.string('trigger', 64).notNullable();
      t.text('payload').notNullable();
      t.string('idempotency_key', 36).notNullable();
      t.string('event_uuid', 36).notNullable();
      t.integer('attempts').notNullable().defaultTo(0);
      t.timestamp('claimed_until', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.index(['hook_id']);
    });
  },
};
