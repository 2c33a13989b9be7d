/** Group memberships as GitLab's member hooks, to the hooks of the group and of the groups above it. */
import type { EventBus } from '@forgekit/kernel';
import { accessLevelName, coreEvents, type GroupService, type MemberEventPayload, type UserService } from '@forgekit/plugin-core/contracts';
import type { HookRequest } from '../contracts.js';

export interface MemberHookDeps {
  events: EventBus;
  groups: GroupService;
  users: UserService;
  publish(request: HookRequest): Promise<void>;
}

export function listenToGroupMembers(deps: MemberHookDeps) {
  const hook = (eventName: string) => async (member: MemberEventPayload) => {
    if (member.sourceType !== 'Namespace') return;
    const group = await deps.groups.findById(member.sourceId);
    const user = await deps.users.findById(member.userId);
    if (group?.kind !== 'group' || !user) return;
    // The event carries no timestamps: the change happens now.
    const now = new Date().toISOString();
    await deps.publish({
      trigger: 'member_events',
      projectId: null,
      groupId: group.id,
      payload: {
        created_at: now,
        updated_at: now,
        group_name: group.name,
        group_path: group.path,
        group_id: group.id,
        user_username: user.username,
        user_name: user.name,
        user_email: user.email,
        user_id: user.id,
        group_access: accessLevelName(member.accessLevel),
        group_plan: null,
        expires_at: member.expiresAt,
        event_name: eventName,
      },
    });
  };
  deps.events.on(coreEvents.memberAdded, hook('user_add_to_group'));
  deps.events.on(coreEvents.memberUpdated, hook('user_update_for_group'));
  deps.events.on(coreEvents.memberRemoved, hook('user_remove_from_group'));
}
