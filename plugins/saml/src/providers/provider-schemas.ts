/** JSON Schema of a group's SAML provider answer (`provider-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

export const providerSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    group_id: { type: 'integer' },
    enabled: { type: 'boolean' },
    sso_url: { type: 'string' },
    certificate_fingerprint: { type: 'string' },
    default_membership_role: { type: 'integer' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
  required: ['id', 'group_id', 'enabled', 'sso_url', 'certificate_fingerprint', 'default_membership_role', 'created_at', 'updated_at'],
};
