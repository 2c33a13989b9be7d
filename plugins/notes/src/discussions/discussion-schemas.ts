/** JSON Schema of the discussion answer (`discussion-routes.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';
import { noteSchema } from '../notes/note-schemas.js';

/** GitLab's Discussion: a thread and its notes, oldest first. */
export const discussionSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: ['string', 'null'] },
    individual_note: { type: 'boolean' },
    notes: { type: 'array', items: noteSchema },
  },
  required: ['id', 'individual_note', 'notes'],
};
