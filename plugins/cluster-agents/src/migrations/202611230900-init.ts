import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611230900-init',
  async up(knex) {
    await knex.schema.createTable('cluster_agents', (t) => {
      t.increments('id');
      t.integer('project_id').notNullable();
      t.string('name', 255).notNullable();
      t.integer('created_by_user_id');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['project_id', 'name']);
    });
    await knex.schema.createTable('cluster_agent_tokens', (t) => {
      t.increments('id');
      t.integer('agent_id').notNullable().references('id').inTable('cluster_agents').onDelete('CASCADE');
      t.integer('project_id').notNullable().index();
      t.string('name', 255).notNullable();
      t.text('description');
      /** sha256 of the secret; the secret itself is never stored. */
      t.string('token_digest', 64).notNullable().unique();
      t.string('status', 16).notNullable().defaultTo('active');
      t.integer('created_by_user_id');
      t.timestamp('last_used_at', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['agent_id', 'status']);
    });
    await knex.schema.createTable('cluster_agent_url_configurations', (t) => {
      t.increments('id');
      t.integer('agent_id').notNullable().unique().references('id').inTable('cluster_agents').onDelete('CASCADE');
      t.integer('project_id').notNullable().index();
      t.integer('created_by_user_id');
      t.text('url').notNullable();
      /** Certificates and the public key are kept as base64 of their bytes, as the API returns them. */
      t.text('ca_cert');
      t.string('tls_host', 255);
      t.text('client_cert');
      /** Private material is sealed (see secret-box.ts). */
      t.text('client_key');
      t.string('public_key', 255);
      t.text('private_key');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
  },
};
