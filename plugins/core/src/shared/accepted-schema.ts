/** JSON Schema of the kernel's `accepted()` answer, for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

/** `202 {"message": "202 Accepted"}`: work that goes on after the answer (a deletion). */
export const acceptedSchema: JsonSchema = {
  type: 'object',
  properties: { message: { const: '202 Accepted' } },
  required: ['message'],
};
