/** JSON Schema of GitLab's Compare entity (`compare-routes.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';
import { commitSchema } from '../commits/commit-schemas.js';
import { diffSchema } from './diff-schemas.js';

export const compareSchema: JsonSchema = {
  type: 'object',
  properties: {
    commit: { anyOf: [commitSchema, { type: 'null' }] },
    commits: { type: 'array', items: commitSchema },
    diffs: { type: 'array', items: diffSchema },
    compare_timeout: { type: 'boolean' },
    compare_same_ref: { type: 'boolean' },
    web_url: { type: 'string' },
  },
  required: ['commit', 'commits', 'diffs', 'compare_timeout', 'compare_same_ref', 'web_url'],
};
