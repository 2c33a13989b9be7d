/** JSON Schemas of the hook answers (`hook-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';
import { HOOK_TRIGGERS } from '../contracts.js';
import type { HookOwnerKind } from '../entities/web-hook.js';

const keysOnly: JsonSchema = { type: 'array', items: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] } };

// A hook created without `confidential_note_events` keeps it unset (null) until it is given.
const triggerSchema = (name: string): JsonSchema => ({ type: name === 'confidential_note_events' ? ['boolean', 'null'] : 'boolean' });

/** What group and project hooks share. */
const hookSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    url: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
    ...Object.fromEntries(HOOK_TRIGGERS.map((name) => [name, triggerSchema(name)])),
    enable_ssl_verification: { type: 'boolean' },
    alert_status: { enum: ['executable', 'temporarily_disabled', 'disabled'] },
    disabled_until: { type: ['string', 'null'], format: 'date-time' },
    url_variables: keysOnly,
    push_events_branch_filter: { type: ['string', 'null'] },
    branch_filter_strategy: { type: 'string' },
    custom_webhook_template: { type: 'string' },
    custom_headers: keysOnly,
  },
  required: [
    'id',
    'url',
    'name',
    'description',
    'created_at',
    ...HOOK_TRIGGERS,
    'enable_ssl_verification',
    'alert_status',
    'disabled_until',
    'url_variables',
    'push_events_branch_filter',
    'branch_filter_strategy',
    'custom_webhook_template',
    'custom_headers',
  ],
};

const ownedBy = (field: 'group_id' | 'project_id'): JsonSchema => ({
  allOf: [hookSchema, { type: 'object', properties: { [field]: { type: 'integer' } }, required: [field] }],
});

/** `GroupHook` and `ProjectHook`: the hook with its owner's id. */
export const hookSchemas: Readonly<Record<HookOwnerKind, JsonSchema>> = { group: ownedBy('group_id'), project: ownedBy('project_id') };
