import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611271110-init',
  async up(knex) {
    await knex.schema.createTable('web_hooks', (t) => {
      t.increments('id');
      t.string('owner_type', 16).notNullable();
      t.integer('owner_id').notNullable();
      t.text('url').notNullable();
      t.string('name', 255);
      t.text('description');
      t.text('token');
      t.text('url_variables');
      t.text('custom_headers');
      t.text('triggers').notNullable();
      t.boolean('enable_ssl_verification').notNullable().defaultTo(true);
      t.text('push_events_branch_filter');
      t.string('branch_filter_strategy', 32).notNullable();
      t.text('custom_webhook_template');
      t.integer('recent_failures').notNullable().defaultTo(0);
      t.timestamp('disabled_until', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['owner_type', 'owner_id']);
    });
    await knex.schema.createTable('web_hook_logs', (t) => {
      t.increments('id');
      t.integer('hook_id').notNullable();
      t.string('trigger', 64).notNullable();
      t.text('url').notNullable();
      t.string('url_digest', 64).notNullable();
      t.text('request_headers').notNullable();
      t.text('request_data').notNullable();
      t.text('response_headers').notNullable();
      t.text('response_body').notNullable();
      t.string('response_status', 32).notNullable();
      t.integer('execution_ms').notNullable();
      t.string('idempotency_key', 36).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.index(['hook_id', 'created_at']);
    });
  },
};
