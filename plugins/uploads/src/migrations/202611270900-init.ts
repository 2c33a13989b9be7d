import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611270900-init',
  async up(knex) {
    await knex.schema.createTable('uploads', (t) => {
      t.increments('id');
      t.string('owner_type', 16).notNullable();
      t.integer('owner_id').notNullable();
      t.string('secret', 32).notNullable();
      t.string('filename', 255).notNullable();
      t.bigInteger('size').notNullable();
      t.integer('uploaded_by_id');
      t.timestamp('created_at', { useTz: true }).notNullable();
      // Lookups by secret and name; a secret is random, so one owner never holds it twice.
      t.unique(['owner_type', 'owner_id', 'secret', 'filename']);
      // The list: an owner's uploads, newest first.
      t.index(['owner_type', 'owner_id', 'created_at']);
    });
  },
};
