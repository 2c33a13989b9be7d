import type { PluginMigration } from '@forgekit/kernel/orm';

/** `tls_host` holds as much as GitLab's column: 2,048 characters. */
export const widenTlsHost: PluginMigration = {
  name: '202611241000-widen-tls-host',
  async up(knex) {
    await knex.schema.alterTable('cluster_agent_url_configurations', (t) => {
      t.string('tls_host', 2048).nullable().alter();
    });
  },
};
