import type { PluginMigration } from '@forgekit/kernel/orm';

/**
 * A counter every update of a merge request raises (the entity declares it as its version
 * property, which the ORM increments in the update's own statement): presented merge
 * requests are cached by it.
 */
export const lockVersion: PluginMigration = {
  name: '202611271800-lock-version',
  async up(knex) {
    await knex.schema.alterTable('merge_requests', (t) => {
      t.integer('lock_version').notNullable().defaultTo(0);
    });
  },
};
