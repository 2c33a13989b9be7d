/** JSON Schema of the milestone event answer (`event-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';
import { userBasicSchema } from '@forgekit/plugin-core/contracts';
import { milestoneSchema } from '@forgekit/plugin-milestones/contracts';

/** GitLab's ResourceMilestoneEvent. */
export const milestoneEventSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    user: { anyOf: [userBasicSchema, { type: 'null' }] },
    created_at: { type: 'string', format: 'date-time' },
    resource_type: { type: 'string', enum: ['Issue', 'MergeRequest'] },
    resource_id: { type: 'integer' },
    milestone: milestoneSchema,
    action: { type: 'string', enum: ['add', 'remove'] },
    state: { type: 'string' },
  },
  required: ['id', 'user', 'created_at', 'resource_type', 'resource_id', 'milestone', 'action', 'state'],
};
