/** JSON Schemas of the Unleash answers (`unleash-features.ts`, `unleash-routes.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

/** The features document an SDK polls: each flag with the strategies scoped to the SDK's environment. */
export const clientFeaturesSchema: JsonSchema = {
  type: 'object',
  properties: {
    version: { type: 'integer' },
    features: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          description: { type: 'string' },
          enabled: { type: 'boolean' },
          strategies: {
            type: 'array',
            items: { type: 'object', properties: { name: { type: 'string' }, parameters: { type: 'object' } }, required: ['name', 'parameters'] },
          },
        },
        required: ['name', 'enabled', 'strategies'],
      },
    },
  },
  required: ['version', 'features'],
};

/** What an accepted and ignored call answers: the bare status. */
export const placeholderSchema: JsonSchema = { const: 200 };
