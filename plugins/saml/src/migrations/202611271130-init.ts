import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611271130-init',
  async up(knex) {
    await knex.schema.createTable('saml_providers', (t) => {
      t.increments('id');
      t.integer('group_id').notNullable().unique();
      t.boolean('enabled').notNullable().defaultTo(true);
      t.string('sso_url', 2048).notNullable();
      t.string('certificate_fingerprint', 255).notNullable();
      t.integer('default_membership_role').notNullable().defaultTo(10);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
    await knex.schema.createTable('saml_identities', (t) => {
      t.increments('id');
      t.integer('saml_provider_id').notNullable();
      t.integer('user_id').notNullable();
      t.string('extern_uid', 255).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['saml_provider_id', 'extern_uid']);
      t.unique(['saml_provider_id', 'user_id']);
      t.index(['user_id']);
    });
    await knex.schema.createTable('saml_group_links', (t) => {
      t.increments('id');
      t.integer('group_id').notNullable();
      t.integer('root_group_id').notNullable();
      t.string('name', 255).notNullable();
      t.integer('access_level').notNullable();
      t.integer('member_role_id');
      t.string('provider', 255);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.index(['group_id', 'name']);
      t.index(['root_group_id']);
    });
  },
};
