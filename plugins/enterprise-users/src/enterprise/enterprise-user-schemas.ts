/** JSON Schema of an enterprise user answer (`present` in `enterprise-routes.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';
import { userBasicSchema } from '@forgekit/plugin-core/contracts';

/** Core's public user view, of which this names what the enterprise API adds or acts on. */
export const enterpriseUserSchema: JsonSchema = {
  allOf: [
    userBasicSchema,
    {
      type: 'object',
      properties: {
        email: { type: 'string' },
        two_factor_enabled: { type: 'boolean' },
        shared_runners_minutes_limit: { type: 'null' },
        extra_shared_runners_minutes_limit: { type: 'null' },
        scim_identities: { type: 'array' },
      },
      required: ['email', 'two_factor_enabled', 'shared_runners_minutes_limit', 'extra_shared_runners_minutes_limit', 'scim_identities'],
    },
  ],
};
