import type { PluginMigration } from '@forgekit/kernel/orm';

export const protectedBranches: PluginMigration = {
  name: '202611241000-protected-branches',
  async up(knex) {
    await knex.schema.createTable('protected_branches', (t) => {
      t.increments('id');
      t.integer('project_id').notNullable();
      /** A branch name, or a pattern with `*` wildcards (`release/*`). */
      t.string('name', 1024).notNullable();
      t.boolean('allow_force_push').notNullable().defaultTo(false);
      t.boolean('code_owner_approval_required').notNullable().defaultTo(false);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['project_id', 'name']);
    });
    await knex.schema.createTable('protected_branch_access_levels', (t) => {
      t.increments('id');
      t.integer('protected_branch_id').notNullable().index();
      /** `push`, `merge` or `unprotect`. */
      t.string('action', 16).notNullable();
      /** 0 (no one), 30 (Developers and Maintainers), 40 (Maintainers) or 60 (administrators). */
      t.integer('access_level').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
    });
  },
};
