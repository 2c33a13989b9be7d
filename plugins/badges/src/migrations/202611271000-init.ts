import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611271000-init',
  async up(knex) {
    await knex.schema.createTable('badges', (t) => {
      t.increments('id');
      t.string('kind', 16).notNullable();
      t.integer('owner_id').notNullable();
      t.string('name', 255);
      t.text('link_url').notNullable();
      t.text('image_url').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      // A source's badges, oldest first; a project's list reads its own and its groups' this way.
      t.index(['kind', 'owner_id', 'created_at']);
    });
  },
};
