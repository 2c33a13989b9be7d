import type { PluginMigration } from '@forgekit/kernel/orm';

/**
 * A counter every update of a note raises (the entity declares it as its version property,
 * which the ORM increments in the update's own statement): presented notes are cached by it.
 */
export const noteLockVersion: PluginMigration = {
  name: '202611271810-note-lock-version',
  async up(knex) {
    await knex.schema.alterTable('notes', (t) => {
      t.integer('lock_version').notNullable().defaultTo(0);
    });
  },
};
