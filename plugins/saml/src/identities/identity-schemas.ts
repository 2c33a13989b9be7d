/** JSON Schema of a SAML identity answer (`identity-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

export const identitySchema: JsonSchema = {
  type: 'object',
  properties: { extern_uid: { type: 'string' }, user_id: { type: 'integer' } },
  required: ['extern_uid', 'user_id'],
};
