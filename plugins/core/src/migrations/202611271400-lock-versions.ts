import type { PluginMigration } from '@forgekit/kernel/orm';

/**
 * A counter every update of a project, namespace or user row raises (the entities declare it
 * as their version property, which the ORM increments in each update's own statement), so a
 * presented answer cached by its rows' versions is never stale, also across server processes.
 */
export const lockVersions: PluginMigration = {
  name: '202611271400-lock-versions',
  async up(knex) {
    for (const table of ['projects', 'namespaces', 'users']) {
      await knex.schema.alterTable(table, (t) => {
        t.integer('lock_version').notNullable().defaultTo(0);
      });
    }
  },
};
