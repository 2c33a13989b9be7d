/** JSON Schema of one entry of the repository tree (`tree-routes.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

export const treeEntrySchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    type: { enum: ['tree', 'blob', 'commit'] },
    path: { type: 'string' },
    mode: { type: 'string' },
  },
  required: ['id', 'name', 'type', 'path', 'mode'],
};
