/** JSON Schema of a SAML group link answer (`link-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

export const linkSchema: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    access_level: { type: 'integer' },
    member_role_id: { type: ['integer', 'null'] },
    provider: { type: ['string', 'null'] },
  },
  required: ['name', 'access_level', 'member_role_id', 'provider'],
};
