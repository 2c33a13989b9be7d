import type { PluginMigration } from '@forgekit/kernel/orm';

/**
 * A counter every update of a label raises (the entity declares it as its version property,
 * which the ORM increments in the update's own statement): presented labels are cached by it.
 */
export const lockVersion: PluginMigration = {
  name: '202611271400-lock-version',
  async up(knex) {
    await knex.schema.alterTable('labels', (t) => {
      t.integer('lock_version').notNullable().defaultTo(0);
    });
  },
};
