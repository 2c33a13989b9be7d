/** JSON Schemas of the user list answers (`user-list-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

/** The basic form, inside strategies; `user_xids` is the comma-separated list. */
export const userListBasicSchema: JsonSchema = {
  type: 'object',
  properties: { id: { type: 'integer' }, iid: { type: 'integer' }, name: { type: 'string' }, user_xids: { type: 'string' } },
  required: ['id', 'iid', 'name', 'user_xids'],
};

export const userListSchema: JsonSchema = {
  allOf: [
    userListBasicSchema,
    {
      type: 'object',
      properties: {
        project_id: { type: 'integer' },
        created_at: { type: 'string', format: 'date-time' },
        updated_at: { type: 'string', format: 'date-time' },
        path: { type: 'string' },
        edit_path: { type: 'string' },
      },
      required: ['project_id', 'created_at', 'updated_at', 'path', 'edit_path'],
    },
  ],
};
