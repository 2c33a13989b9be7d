/** JSON Schema of the milestone answer (`milestone-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

const day: JsonSchema = { type: ['string', 'null'], format: 'date' };

/** GitLab's Milestone: `project_id` on a project milestone, `group_id` on a group one. */
export const milestoneSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    iid: { type: 'integer' },
    project_id: { type: 'integer' },
    group_id: { type: 'integer' },
    title: { type: 'string' },
    description: { type: ['string', 'null'] },
    state: { type: 'string', enum: ['active', 'closed'] },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    due_date: day,
    start_date: day,
    expired: { type: 'boolean' },
    web_url: { type: 'string' },
  },
  required: ['id', 'iid', 'title', 'description', 'state', 'created_at', 'updated_at', 'due_date', 'start_date', 'expired', 'web_url'],
};

/** An issue or a merge request that carries the milestone, as the plugin that owns it presents it: what every such item holds. */
export const milestoneItemSchema: JsonSchema = {
  type: 'object',
  properties: { id: { type: 'integer' }, iid: { type: 'integer' }, project_id: { type: 'integer' } },
  required: ['id', 'iid', 'project_id'],
};

/** `POST .../promote`: GitLab's answer is the status it sets, as the body. */
export const promotedSchema: JsonSchema = { type: 'integer', const: 200 };
