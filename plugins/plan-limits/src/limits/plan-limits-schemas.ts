/** JSON Schema of the plan limits answer (`publicLimits`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';
import { PUBLIC_LIMIT_NAMES } from './limit-catalogue.js';

/** GitLab's PlanLimit: every public limit of the plan, each a whole number. */
export const planLimitsSchema: JsonSchema = {
  type: 'object',
  properties: Object.fromEntries(PUBLIC_LIMIT_NAMES.map((name) => [name, { type: 'integer' }])),
  required: [...PUBLIC_LIMIT_NAMES],
};
