import type { PluginMigration } from '@forgekit/kernel/orm';

/**
 * A counter every update of an issue raises (the entity declares it as its version property,
 * which the ORM increments in the update's own statement): presented issues are cached by it.
 */
export const lockVersion: PluginMigration = {
  name: '202611271400-lock-version',
  async up(knex) {
    await knex.schema.alterTable('issues', (t) => {
      t.integer('lock_version').notNullable().defaultTo(0);
    });
  },
};
