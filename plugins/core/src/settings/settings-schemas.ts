/** JSON Schema of the `/application/settings` answer, for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

/** The instance's settings: `id` 1, then every setting a plugin defines, by its key, with its value or default. */
export const applicationSettingsSchema: JsonSchema = {
  type: 'object',
  properties: { id: { const: 1 } },
  required: ['id'],
};
