/** JSON Schemas of the personal access token answers (`presentToken`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

/** GitLab's PersonalAccessToken: a token as lists and reads show it, without its secret. */
export const tokenSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    revoked: { type: 'boolean' },
    created_at: { type: 'string', format: 'date-time' },
    description: { type: ['string', 'null'] },
    scopes: { type: 'array', items: { type: 'string' } },
    user_id: { type: 'integer' },
    last_used_at: { type: ['string', 'null'], format: 'date-time' },
    active: { type: 'boolean' },
    expires_at: { type: ['string', 'null'], format: 'date' },
  },
  required: ['id', 'name', 'revoked', 'created_at', 'description', 'scopes', 'user_id', 'last_used_at', 'active', 'expires_at'],
};

/** A token just created or rotated: the only answer that holds its secret. */
export const tokenWithSecretSchema: JsonSchema = {
  allOf: [tokenSchema, { type: 'object', properties: { token: { type: 'string' } }, required: ['token'] }],
};
