/** JSON Schema of the appearance answer (`presentAppearance`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';
import { IMAGE_FIELDS, TEXT_FIELDS } from './appearance-service.js';

/** GitLab's Appearance: every text (empty when unset), the flag, and each image's path (null for none). */
export const appearanceSchema: JsonSchema = {
  type: 'object',
  properties: {
    ...Object.fromEntries(Object.keys(TEXT_FIELDS).map((name) => [name, { type: 'string' }])),
    ...Object.fromEntries(IMAGE_FIELDS.map((name) => [name, { type: ['string', 'null'] }])),
    email_header_and_footer_enabled: { type: 'boolean' },
  },
  required: [...Object.keys(TEXT_FIELDS), ...IMAGE_FIELDS, 'email_header_and_footer_enabled'],
};
