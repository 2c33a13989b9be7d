/** JSON Schema of the project alias answer, for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

/** GitLab's ProjectAlias. */
export const projectAliasSchema: JsonSchema = {
  type: 'object',
  properties: { id: { type: 'integer' }, project_id: { type: 'integer' }, name: { type: 'string' } },
  required: ['id', 'project_id', 'name'],
};
