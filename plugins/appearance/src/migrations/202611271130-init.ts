import type { PluginMigration } from '@forgekit/kernel/orm';

export const init: PluginMigration = {
  name: '202611271130-init',
  async up(knex) {
    await knex.schema.createTable('appearances', (t) => {
      t.increments('id');
      t.string('title', 255).notNullable();
      t.text('description').notNullable();
      t.string('pwa_name', 255).notNullable();
      t.string('pwa_short_name', 255).notNullable();
      t.text('pwa_description').notNullable();
      t.text('member_guidelines').notNullable();
      t.text('new_project_guidelines').notNullable();
      t.text('profile_image_guidelines').notNullable();
      t.text('header_message').notNullable();
      t.text('footer_message').notNullable();
      t.string('message_background_color', 16).notNullable();
      t.string('message_font_color', 16).notNullable();
      t.boolean('email_header_and_footer_enabled').notNullable().defaultTo(false);
      t.string('logo', 255);
      t.string('header_logo', 255);
      t.string('favicon', 255);
      t.string('pwa_icon', 255);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
  },
};
