/** JSON Schema of GitLab's Diff entity (`diff-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

export const diffSchema: JsonSchema = {
  type: 'object',
  properties: {
    diff: { type: 'string' },
    new_path: { type: 'string' },
    old_path: { type: 'string' },
    a_mode: { type: 'string' },
    b_mode: { type: 'string' },
    new_file: { type: 'boolean' },
    renamed_file: { type: 'boolean' },
    deleted_file: { type: 'boolean' },
    generated_file: { type: 'boolean' },
  },
  required: ['diff', 'new_path', 'old_path', 'a_mode', 'b_mode', 'new_file', 'renamed_file', 'deleted_file', 'generated_file'],
};
