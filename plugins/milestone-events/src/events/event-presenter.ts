import { relinkWebUrl, type RequestContext } from '@forgekit/kernel';
import type { Milestone, MilestonesService } from '@forgekit/plugin-milestones/contracts';
import type { userBasic } from '@forgekit/plugin-core/contracts';
import type { StoredEvent } from './event-store.js';

/** GitLab's `ResourceMilestoneEvent` entity, its links on the request's URL. */
export function presentEvent(
  ctx: Pick<RequestContext, 'relink'>,
  event: StoredEvent,
  milestone: Milestone,
  user: ReturnType<typeof userBasic> | null,
  milestones: MilestonesService,
) {
  return {
    id: event.id,
    user,
    created_at: event.createdAt,
    resource_type: event.resourceType,
    resource_id: event.resourceId,
    milestone: relinkWebUrl(ctx, milestones.entity(milestone)),
    action: event.action,
    state: event.state,
  };
}
