import type { PluginMigration } from '@forgekit/kernel/orm';

/**
 * When the background job saw an iteration close (its due date passed). Iterations already
 * past are stamped now, so the first run after the upgrade rolls nothing over from long ago.
 */
export const closedAt: PluginMigration = {
  name: '202611250200-closed-at',
  async up(knex) {
    await knex.schema.alterTable('iterations', (t) => {
      t.timestamp('closed_at', { useTz: true });
    });
    const today = new Date().toISOString().slice(0, 10);
    await knex('iterations').where('due_date', '<', today).update({ closed_at: new Date() });
  },
};
