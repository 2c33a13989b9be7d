import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

export const ApplicationSettingEntity = defineEntity({
  name: 'ApplicationSetting',
  tableName: 'application_settings',
  properties: (p) => ({
    key: p.string().length(255).primary(),
    /** The value as JSON text. */
    value: p.text(),
  }),
});

export type ApplicationSettingRow = InferEntity<typeof ApplicationSettingEntity>;
