/** JSON Schemas of the runner answers (`runner-presenter.ts`), for the API description. */
import { type JsonSchema, nullable } from '@forgekit/kernel';
import { projectIdentitySchema, userBasicSchema } from '@forgekit/plugin-core/contracts';
import { STATUSES } from './runner-filters.js';
import { ACCESS_LEVELS, RUNNER_TYPES } from './runner-row.js';

/** GitLab's Runner, the list item; `created_by` only when the creator is known. */
export const runnerSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    description: nullable('string'),
    ip_address: { type: 'string' },
    active: { type: 'boolean' },
    paused: { type: 'boolean' },
    is_shared: { type: 'boolean' },
    runner_type: { type: 'string', enum: [...RUNNER_TYPES] },
    name: nullable('string'),
    online: { type: 'boolean' },
    created_by: userBasicSchema,
    created_at: { type: 'string', format: 'date-time' },
    status: { type: 'string', enum: [...STATUSES, 'paused'] },
    job_execution_status: { type: 'string' },
  },
  required: [
    'id',
    'description',
    'ip_address',
    'active',
    'paused',
    'is_shared',
    'runner_type',
    'name',
    'online',
    'created_at',
    'status',
    'job_execution_status',
  ],
};

/**
 * GitLab's RunnerDetails: its projects (core's project identity; left out on
 * `include_projects=false`) and groups, those the caller is a member of.
 */
export const runnerDetailsSchema: JsonSchema = {
  allOf: [
    runnerSchema,
    {
      type: 'object',
      properties: {
        tag_list: { type: 'array', items: { type: 'string' } },
        run_untagged: { type: 'boolean' },
        locked: { type: 'boolean' },
        maximum_timeout: nullable('integer'),
        access_level: { type: 'string', enum: [...ACCESS_LEVELS] },
        version: nullable('string'),
        revision: nullable('string'),
        platform: nullable('string'),
        architecture: nullable('string'),
        contacted_at: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
        maintenance_note: nullable('string'),
        projects: { type: 'array', items: projectIdentitySchema },
        groups: {
          type: 'array',
          items: {
            type: 'object',
            properties: { id: { type: 'integer' }, web_url: { type: 'string' }, name: { type: 'string' } },
            required: ['id', 'web_url', 'name'],
          },
        },
      },
      required: [
        'tag_list',
        'run_untagged',
        'locked',
        'maximum_timeout',
        'access_level',
        'version',
        'revision',
        'platform',
        'architecture',
        'contacted_at',
        'maintenance_note',
        'groups',
      ],
    },
  ],
};

/** A runner's jobs: none run yet, so the list is always empty. */
export const runnerJobSchema: JsonSchema = { type: 'object' };
