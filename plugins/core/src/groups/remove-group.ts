import type { EventBus } from '@forgekit/kernel';
import type { GroupService, Namespace } from '../contracts.js';
import { coreEvents } from '../events.js';

/** Removes a group with everything below it and tells other plugins what went. */
export async function removeGroupAndNotify(groups: GroupService, events: EventBus, group: Namespace) {
  const removed = await groups.remove(group);
  for (const projectId of removed.projectIds) await events.emit(coreEvents.projectDeleted, { projectId });
  for (const groupId of removed.groupIds) await events.emit(coreEvents.groupDeleted, { groupId });
}
