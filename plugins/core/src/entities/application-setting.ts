import { defineEntity } from '@forgekit/kernel/orm';

export const ApplicationSetting = defineEntity({
  name: 'ApplicationSetting',
  tableName: 'application_settings',
  properties: (p) => ({
    key: p.string().length(255).primary(),
    /** The value as JSON text. */
    value: p.text(),
  }),
});
