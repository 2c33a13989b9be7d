import { defineEntity } from '@forgekit/kernel/orm';

export const PersonalAccessToken = defineEntity({
  name: 'PersonalAccessToken',
  tableName: 'personal_access_tokens',
  properties: (p) => ({
    id: p.integer().primary(),
    userId: p.integer(),
    name: p.string().length(255),
    description: p.string().length(255).nullable(),
    tokenDigest: p.string().length(64).unique(),
    scopes: p.text(),
    revoked: p.boolean().default(false),
    expiresAt: p.string().length(10).nullable(),
    lastUsedAt: p.datetime().nullable(),
    previousTokenId: p.integer().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});
