/** JSON Schemas of the feature flag answers (`flag-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';
import { userListBasicSchema } from '../user-lists/user-list-schemas.js';

const strategySchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    parameters: { type: 'object' },
    scopes: {
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'integer' }, environment_scope: { type: 'string' } }, required: ['id', 'environment_scope'] },
    },
    user_list: { anyOf: [userListBasicSchema, { type: 'null' }] },
  },
  required: ['id', 'name', 'parameters', 'scopes', 'user_list'],
};

/** A version 2 flag: its legacy `scopes` are always empty, its strategies carry the scopes. */
export const flagSchema: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    description: { type: ['string', 'null'] },
    active: { type: 'boolean' },
    version: { const: 'new_version_flag' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    scopes: { type: 'array', maxItems: 0 },
    strategies: { type: 'array', items: strategySchema },
  },
  required: ['name', 'description', 'active', 'version', 'created_at', 'updated_at', 'scopes', 'strategies'],
};
