import type { PluginMigration } from '@forgekit/kernel/orm';

/**
 * A noteable's notes in page order (GitLab's default, newest first): a page reads its rows
 * from the index rather than sorting every note of the noteable. It covers the lookups of the
 * index it replaces.
 */
export const notesPageOrder: PluginMigration = {
  name: '202611271800-notes-page-order',
  async up(knex) {
    await knex.schema.alterTable('notes', (t) => {
      t.dropIndex(['noteable_type', 'noteable_id']);
      t.index(['noteable_type', 'noteable_id', 'created_at', 'id']);
    });
  },
};
