/** JSON Schema of the iteration answer (`iteration-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

/** GitLab's Iteration; `state` is 1 upcoming, 2 current, 3 closed. */
export const iterationSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    iid: { type: 'integer' },
    sequence: { type: 'integer' },
    group_id: { type: 'integer' },
    title: { type: ['string', 'null'] },
    description: { type: ['string', 'null'] },
    state: { type: 'integer', enum: [1, 2, 3] },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    start_date: { type: 'string', format: 'date' },
    due_date: { type: 'string', format: 'date' },
    web_url: { type: 'string' },
  },
  required: ['id', 'iid', 'sequence', 'group_id', 'title', 'description', 'state', 'created_at', 'updated_at', 'start_date', 'due_date', 'web_url'],
};
