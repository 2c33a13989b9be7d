import type { Milestone, MilestonesService } from '@forgekit/plugin-milestones/contracts';
import type { UserRow } from '@forgekit/plugin-core/contracts';
import type { StoredEvent } from './event-store.js';

/** GitLab's `UserBasic`. */
export function presentUser(user: UserRow, externalUrl: string) {
  return {
    id: user.id,
    username: user.username,
    public_email: user.public_email ?? null,
    name: user.name,
    state: user.state,
    locked: false,
    avatar_url: null,
    web_url: `${externalUrl}/${user.username}`,
  };
}

/** GitLab's `ResourceMilestoneEvent` entity. */
export function presentEvent(event: StoredEvent, milestone: Milestone, user: ReturnType<typeof presentUser> | null, milestones: MilestonesService) {
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
