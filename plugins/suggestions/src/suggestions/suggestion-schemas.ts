/** JSON Schema of GitLab's Suggestion entity (`suggestion-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

export const suggestionSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    from_line: { type: 'integer' },
    to_line: { type: 'integer' },
    appliable: { type: 'boolean' },
    applicable: { type: 'boolean' },
    applied: { type: 'boolean' },
    from_content: { type: 'string' },
    to_content: { type: 'string' },
  },
  required: ['id', 'from_line', 'to_line', 'appliable', 'applicable', 'applied', 'from_content', 'to_content'],
};
