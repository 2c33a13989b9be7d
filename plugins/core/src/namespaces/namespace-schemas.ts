/** JSON Schemas of the `/namespaces` answers, for the API description. */
import type { JsonSchema } from '@forgekit/kernel';
import { namespaceBasicSchema } from '../shared/namespace-schemas.js';

/** A namespace; a group its caller owns (or any, for an admin) adds how many users belong to it and its subgroups. */
export const namespaceSchema: JsonSchema = {
  allOf: [namespaceBasicSchema, { type: 'object', properties: { members_count_with_descendants: { type: 'integer' } } }],
};

/** `GET /namespaces/:id/exists`. */
export const namespaceExistsSchema: JsonSchema = {
  type: 'object',
  properties: { exists: { type: 'boolean' }, suggests: { type: 'array', items: { type: 'string' } } },
  required: ['exists', 'suggests'],
};
