import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

export type HookOwnerKind = 'group' | 'project';

/**
 * A webhook of a group or a project. The token, URL variables and custom headers are secrets:
 * they are kept sealed with the instance's secrets key and never answered.
 */
export const WebHookEntity = defineEntity({
  name: 'WebHook',
  tableName: 'web_hooks',
  indexes: [{ properties: ['ownerType', 'ownerId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    ownerType: p.string().$type<HookOwnerKind>().length(16),
    ownerId: p.integer(),
    /** As given: may hold `{variable}` placeholders. */
    url: p.text(),
    name: p.string().length(255).nullable(),
    description: p.text().nullable(),
    /** Sealed. */
    token: p.text().nullable(),
    /** Sealed JSON object of name → value. */
    urlVariables: p.text().nullable(),
    /** Sealed JSON object of name → value. */
    customHeaders: p.text().nullable(),
    /** JSON object of trigger flag → boolean (or null, for `confidential_note_events`). */
    triggers: p.text(),
    enableSslVerification: p.boolean().default(true),
    pushEventsBranchFilter: p.text().nullable(),
    branchFilterStrategy: p.string().length(32),
    customWebhookTemplate: p.text().nullable(),
    recentFailures: p.integer().default(0),
    disabledUntil: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type WebHookRow = InferEntity<typeof WebHookEntity>;
