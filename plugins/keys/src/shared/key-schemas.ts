/** JSON Schemas of the key answers (`key-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';
import { projectIdentitySchema } from '@forgekit/plugin-core/contracts';

const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
const nullableDateTime: JsonSchema = { type: ['string', 'null'], format: 'date-time' };

/** `SSHKey`: a user's key as published, its comment giving way to the owner's name and the host. */
export const sshKeySchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    created_at: dateTime,
    expires_at: nullableDateTime,
    last_used_at: nullableDateTime,
    key: { type: 'string' },
    usage_type: { enum: ['auth_and_signing', 'auth', 'signing'] },
  },
  required: ['id', 'title', 'created_at', 'expires_at', 'last_used_at', 'key', 'usage_type'],
};

/** `DeployKey`: the same fields with the key as stored, and its fingerprints (no MD5 one where it was not kept). */
export const deployKeySchema: JsonSchema = {
  allOf: [
    sshKeySchema,
    {
      type: 'object',
      properties: { fingerprint: { type: 'string' }, fingerprint_sha256: { type: 'string', pattern: '^SHA256:' } },
      required: ['fingerprint_sha256'],
    },
  ],
};

/** `DeployKeysProject`: a deploy key on a project, and whether it may push there. */
export const deployKeysProjectSchema: JsonSchema = {
  allOf: [deployKeySchema, { type: 'object', properties: { can_push: { type: 'boolean' } }, required: ['can_push'] }],
};

/** The administrator's list: each deploy key with the projects it writes to and reads from. */
export const instanceDeployKeySchema: JsonSchema = {
  allOf: [
    deployKeySchema,
    {
      type: 'object',
      properties: {
        projects_with_write_access: { type: 'array', items: projectIdentitySchema },
        projects_with_readonly_access: { type: 'array', items: projectIdentitySchema },
      },
      required: ['projects_with_write_access', 'projects_with_readonly_access'],
    },
  ],
};

const deployKeysProjectRecordSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    deploy_key_id: { type: 'integer' },
    project_id: { type: 'integer' },
    created_at: dateTime,
    updated_at: dateTime,
    can_push: { type: 'boolean' },
  },
  required: ['id', 'deploy_key_id', 'project_id', 'created_at', 'updated_at', 'can_push'],
};

/**
 * `GET /keys/:id` and `GET /keys?fingerprint=`: the key with its user (core's `UserPublic`
 * fields, null once the user is gone), and for a deploy key found by fingerprint its projects.
 */
export const keyLookupSchema: JsonSchema = {
  allOf: [
    sshKeySchema,
    {
      type: 'object',
      properties: {
        user: { type: ['object', 'null'], properties: { id: { type: 'integer' }, username: { type: 'string' } }, required: ['id', 'username'] },
        deploy_keys_projects: { type: 'array', items: deployKeysProjectRecordSchema },
      },
      required: ['user'],
    },
  ],
};
