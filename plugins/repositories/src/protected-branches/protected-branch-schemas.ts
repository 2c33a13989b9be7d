/** JSON Schema of GitLab's ProtectedBranch entity (`protected-branch-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

const nullableId: JsonSchema = { type: ['integer', 'null'] };

/** One role allowed to push, merge or unprotect. */
const accessLevelSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    access_level: { type: 'integer' },
    access_level_description: { type: 'string' },
    user_id: nullableId,
    group_id: nullableId,
  },
  required: ['id', 'access_level', 'access_level_description', 'user_id', 'group_id'],
};

const pushAccessLevelSchema: JsonSchema = {
  allOf: [accessLevelSchema, { type: 'object', properties: { deploy_key_id: nullableId }, required: ['deploy_key_id'] }],
};

export const protectedBranchSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    push_access_levels: { type: 'array', items: pushAccessLevelSchema },
    merge_access_levels: { type: 'array', items: accessLevelSchema },
    unprotect_access_levels: { type: 'array', items: accessLevelSchema },
    allow_force_push: { type: 'boolean' },
    code_owner_approval_required: { type: 'boolean' },
  },
  required: ['id', 'name', 'push_access_levels', 'merge_access_levels', 'unprotect_access_levels', 'allow_force_push', 'code_owner_approval_required'],
};
