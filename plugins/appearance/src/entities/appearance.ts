import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/**
 * The instance's appearance: one row, created by the first `PUT`. Image fields hold the stored
 * file's name; the file is in the kernel's file storage under `appearance/<field>/<id>/<name>`.
 */
export const AppearanceEntity = defineEntity({
  name: 'Appearance',
  tableName: 'appearances',
  properties: (p) => ({
    id: p.integer().primary(),
    title: p.string().length(255),
    description: p.text(),
    pwaName: p.string().length(255),
    pwaShortName: p.string().length(255),
    pwaDescription: p.text(),
    memberGuidelines: p.text(),
    newProjectGuidelines: p.text(),
    profileImageGuidelines: p.text(),
    headerMessage: p.text(),
    footerMessage: p.text(),
    messageBackgroundColor: p.string().length(16),
    messageFontColor: p.string().length(16),
    emailHeaderAndFooterEnabled: p.boolean().default(false),
    logo: p.string().length(255).nullable(),
    headerLogo: p.string().length(255).nullable(),
    favicon: p.string().length(255).nullable(),
    pwaIcon: p.string().length(255).nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type AppearanceRow = InferEntity<typeof AppearanceEntity>;
