/** JSON Schemas of the agent token answers (`token-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

/** GitLab's AgentTokenBasic. */
export const tokenBasicSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    description: { type: ['string', 'null'] },
    agent_id: { type: 'integer' },
    status: { type: 'string', enum: ['active', 'revoked'] },
    created_at: { type: 'string', format: 'date-time' },
    created_by_user_id: { type: ['integer', 'null'] },
  },
  required: ['id', 'name', 'description', 'agent_id', 'status', 'created_at', 'created_by_user_id'],
};

/** GitLab's AgentToken: when it was last used. */
export const tokenSchema: JsonSchema = {
  allOf: [
    tokenBasicSchema,
    {
      type: 'object',
      properties: { last_used_at: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] } },
      required: ['last_used_at'],
    },
  ],
};

/** GitLab's AgentTokenWithToken: the secret, shown once on creation. */
export const tokenWithSecretSchema: JsonSchema = {
  allOf: [tokenSchema, { type: 'object', properties: { token: { type: 'string' } }, required: ['token'] }],
};
