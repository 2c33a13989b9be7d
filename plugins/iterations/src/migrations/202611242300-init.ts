import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611242300-init',
  async up(knex) {
    await knex.schema.createTable('iteration_cadences', (t) => {
      t.increments('id');
      t.integer('group_id').notNullable();
      t.string('title', 255).notNullable();
      t.text('description');
      t.boolean('automatic').notNullable().defaultTo(true);
      t.boolean('active').notNullable().defaultTo(true);
      t.boolean('roll_over').notNullable().defaultTo(false);
      t.date('start_date');
      t.integer('duration_in_weeks');
      t.integer('iterations_in_advance');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.index(['group_id']);
    });
    await knex.schema.createTable('iterations', (t) => {
      t.increments('id');
      t.integer('iid').notNullable();
      t.integer('sequence').notNullable();
      t.integer('group_id').notNullable();
      t.integer('cadence_id').notNullable();
      t.string('title', 255);
      t.text('description');
      t.date('start_date').notNullable();
      t.date('due_date').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.unique(['group_id', 'iid']);
      t.index(['cadence_id', 'start_date']);
      t.unique(['cadence_id', 'title']);
      t.index(['group_id', 'due_date']);
    });
  },
};
