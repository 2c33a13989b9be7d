/** Small JSON Schema parts that route answers share, so each is written once. */
import type { JsonSchema } from './field-schema.js';

/** A value of `type`, or null. */
export const nullable = (type: string): JsonSchema => ({ type: [type, 'null'] });

/** The body of `accepted()`: GitLab's `202 {"message": "202 Accepted"}` for work that runs on. */
export const acceptedSchema: JsonSchema = {
  type: 'object',
  properties: { message: { const: '202 Accepted' } },
  required: ['message'],
};
