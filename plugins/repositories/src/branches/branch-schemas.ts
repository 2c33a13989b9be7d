/** JSON Schemas of the branch answers (`branch-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';
import { commitSchema } from '../commits/commit-schemas.js';

/** GitLab's Branch entity. */
export const branchSchema: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    commit: commitSchema,
    merged: { type: 'boolean' },
    protected: { type: 'boolean' },
    developers_can_push: { type: 'boolean' },
    developers_can_merge: { type: 'boolean' },
    can_push: { type: 'boolean' },
    default: { type: 'boolean' },
    web_url: { type: 'string' },
  },
  required: ['name', 'commit', 'merged', 'protected', 'developers_can_push', 'developers_can_merge', 'can_push', 'default', 'web_url'],
};
