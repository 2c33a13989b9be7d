import type { Milestone, MilestonesService } from '@forgekit/plugin-milestones/contracts';
import type { userBasic } from '@forgekit/plugin-core/contracts';
import type { StoredEvent } from './event-store.js';

/** GitLab's `ResourceMilestoneEvent` entity. */
export function presentEvent(event: StoredEvent, milestone: Milestone, user: ReturnType<typeof userBasic> | null, milestones: MilestonesService) {
  return {
    id: event.id,
    user,
    created_at: event.createdAt,
    resource_type: event.resourceType,
    resource_id: event.resourceId,
    milestone: milestones.entity(milestone),
    action: event.action,
    state: event.state,
  };
}
