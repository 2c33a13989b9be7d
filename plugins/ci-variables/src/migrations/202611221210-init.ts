import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611221210-init',
  async up(knex) {
    await knex.schema.createTable('ci_variables', (t) => {
      t.increments('id');
      t.string('owner_type', 16).notNullable();
      t.integer('owner_id').notNullable();
      t.string('key', 255).notNullable();
      t.text('value').notNullable();
      t.string('variable_type', 16).notNullable().defaultTo('env_var');
      t.boolean('protected').notNullable().defaultTo(false);
      t.boolean('masked').notNullable().defaultTo(false);
      t.boolean('hidden').notNullable().defaultTo(false);
      t.boolean('raw').notNullable().defaultTo(false);
      t.string('environment_scope', 255).notNullable().defaultTo('*');
      t.string('description', 255);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      // One row per key and scope; this index also serves listing and lookups by key.
      t.unique(['owner_type', 'owner_id', 'key', 'environment_scope']);
    });
  },
};
