/** A group created inside another as GitLab's subgroup hook, to the parent's hooks and its ancestors'. */
import type { EventBus } from '@forgekit/kernel';
import { coreEvents, type GroupService } from '@forgekit/plugin-core/contracts';
import type { HookRequest } from '../contracts.js';
import { time } from './hook-attributes.js';

export interface SubgroupHookDeps {
  events: EventBus;
  groups: GroupService;
  publish(request: HookRequest): Promise<void>;
}

export function listenToSubgroups(deps: SubgroupHookDeps) {
  deps.events.on(coreEvents.groupCreated, async ({ groupId }) => {
    const group = await deps.groups.findById(groupId);
    const parent = group?.parentId ? await deps.groups.findById(group.parentId) : undefined;
    if (!group || !parent) return;
    await deps.publish({
      trigger: 'subgroup_events',
      projectId: null,
      groupId: parent.id,
      payload: {
        created_at: time(group.createdAt),
        updated_at: time(group.createdAt),
        event_name: 'subgroup_create',
        name: group.name,
        path: group.path,
        full_path: group.fullPath,
        group_id: group.id,
        parent_group_id: parent.id,
        parent_name: parent.name,
        parent_path: parent.path,
        parent_full_path: parent.fullPath,
      },
    });
  });
}
