/** JSON Schemas of the group answers (`group-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';
import { projectBasicSchema } from '../projects/project-schemas.js';
import { visibilitySchema } from '../shared/namespace-schemas.js';

const string: JsonSchema = { type: 'string' };
const boolean: JsonSchema = { type: 'boolean' };
const integer: JsonSchema = { type: 'integer' };
const accessRules: JsonSchema = { type: 'array', items: { type: 'object', properties: { access_level: integer }, required: ['access_level'] } };

/** The structured form of a `default_branch_protection` level (`branchProtectionDefaults`). */
export const branchProtectionDefaultsSchema: JsonSchema = {
  type: 'object',
  properties: { allowed_to_push: accessRules, allow_force_push: boolean, allowed_to_merge: accessRules, developer_can_initial_push: boolean },
  required: ['allowed_to_push', 'allow_force_push', 'allowed_to_merge'],
};

const groupFields: Record<string, JsonSchema> = {
  id: integer,
  web_url: string,
  name: string,
  path: string,
  description: string,
  visibility: visibilitySchema,
  share_with_group_lock: boolean,
  require_two_factor_authentication: boolean,
  two_factor_grace_period: integer,
  project_creation_level: string,
  auto_devops_enabled: { type: ['boolean', 'null'] },
  subgroup_creation_level: string,
  emails_disabled: boolean,
  emails_enabled: boolean,
  mentions_disabled: { type: ['boolean', 'null'] },
  lfs_enabled: boolean,
  archived: boolean,
  default_branch: { type: ['string', 'null'] },
  default_branch_protection: integer,
  default_branch_protection_defaults: branchProtectionDefaultsSchema,
  avatar_url: { type: ['string', 'null'] },
  request_access_enabled: boolean,
  full_name: string,
  full_path: string,
  created_at: { type: 'string', format: 'date-time' },
  parent_id: { type: ['integer', 'null'] },
  organization_id: integer,
  shared_runners_setting: string,
  max_artifacts_size: { type: ['integer', 'null'] },
  marked_for_deletion_on: { type: ['string', 'null'] },
};

/** GitLab's Group: lists, creation and update. */
export const groupSchema: JsonSchema = { type: 'object', properties: groupFields, required: Object.keys(groupFields) };

/** `GET /groups/:id`: the group, with its projects unless `with_projects=false`. */
export const groupDetailSchema: JsonSchema = {
  allOf: [
    groupSchema,
    {
      type: 'object',
      properties: {
        shared_with_groups: { type: 'array' },
        projects: { type: 'array', items: projectBasicSchema },
        shared_projects: { type: 'array' },
      },
      required: ['shared_with_groups'],
    },
  ],
};
