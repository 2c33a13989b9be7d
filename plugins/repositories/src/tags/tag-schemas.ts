/** JSON Schema of GitLab's Tag entity (`tag-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';
import { commitSchema } from '../commits/commit-schemas.js';

export const tagSchema: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    message: { type: 'string' },
    target: { type: 'string' },
    commit: commitSchema,
    release: { type: ['object', 'null'] },
    protected: { type: 'boolean' },
    /** An annotated tag's date; null for a lightweight tag. */
    created_at: { type: ['string', 'null'], format: 'date-time' },
  },
  required: ['name', 'message', 'target', 'commit', 'release', 'protected', 'created_at'],
};
