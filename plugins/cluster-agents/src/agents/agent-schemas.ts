/** JSON Schema of an agent answer (`agent-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

export const agentSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    // Core's project identity, of which the agent names only the project.
    config_project: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
    created_at: { type: 'string', format: 'date-time' },
    created_by_user_id: { type: ['integer', 'null'] },
    is_receptive: { type: 'boolean' },
  },
  required: ['id', 'name', 'config_project', 'created_at', 'created_by_user_id', 'is_receptive'],
};
