/** JSON Schemas of the token answers (`token-results.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

const expiresAt: JsonSchema = { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] };

/** GitLab's ResetTokenResult. */
export const resetTokenResultSchema: JsonSchema = {
  type: 'object',
  properties: { token: { type: 'string' }, token_expires_at: expiresAt },
  required: ['token', 'token_expires_at'],
};

/** GitLab's RunnerRegistrationDetails: the runner and its token. */
export const registrationDetailsSchema: JsonSchema = {
  allOf: [resetTokenResultSchema, { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }],
};
