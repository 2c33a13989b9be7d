import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

export const PersonalAccessTokenEntity = defineEntity({
  name: 'PersonalAccessToken',
  tableName: 'personal_access_tokens',
  indexes: [{ properties: ['userId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    userId: p.integer(),
    name: p.string().length(255),
    description: p.string().length(255).nullable(),
    tokenDigest: p.string().length(64).unique(),
    scopes: p.json<string[]>().columnType('text'),
    revoked: p.boolean().default(false),
    /** `YYYY-MM-DD`. */
    expiresAt: p.string().length(10).nullable(),
    lastUsedAt: p.datetime().nullable(),
    previousTokenId: p.integer().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type PersonalAccessTokenRow = InferEntity<typeof PersonalAccessTokenEntity>;
