/** JSON Schema of the iteration cadence answer (`cadence-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

/** GitLab's IterationCadence fields, in snake_case. */
export const cadenceSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    group_id: { type: 'integer' },
    title: { type: 'string' },
    description: { type: ['string', 'null'] },
    automatic: { type: 'boolean' },
    active: { type: 'boolean' },
    roll_over: { type: 'boolean' },
    start_date: { type: ['string', 'null'], format: 'date' },
    duration_in_weeks: { type: ['integer', 'null'] },
    iterations_in_advance: { type: ['integer', 'null'] },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
  required: [
    'id',
    'group_id',
    'title',
    'description',
    'automatic',
    'active',
    'roll_over',
    'start_date',
    'duration_in_weeks',
    'iterations_in_advance',
    'created_at',
    'updated_at',
  ],
};
