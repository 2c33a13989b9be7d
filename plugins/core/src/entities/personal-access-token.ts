import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

export const PersonalAccessToken = defineEntity({
  name: 'PersonalAccessToken',
  tableName: 'personal_access_tokens',
  indexes: [{ properties: ['user_id'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    user_id: p.integer(),
    name: p.string().length(255),
    description: p.string().length(255).nullable(),
    token_digest: p.string().length(64).unique(),
    scopes: p.json<string[]>().columnType('text'),
    revoked: p.boolean().default(false),
    /** `YYYY-MM-DD`. */
    expires_at: p.string().length(10).nullable(),
    last_used_at: p.datetime().nullable(),
    previous_token_id: p.integer().nullable(),
    created_at: p.datetime(),
    updated_at: p.datetime(),
  }),
});

export type TokenRow = InferEntity<typeof PersonalAccessToken>;
