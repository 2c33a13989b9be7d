/** Deleting a user as GitLab's `Users::DestroyService` does, and telling other plugins what went. */
import type { EventBus } from '@forgekit/kernel';
import type { GroupService, UserDeletion, UserService } from '../contracts.js';
import { coreEvents } from '../events.js';
import { removeGroupAndNotify } from '../groups/remove-group.js';

export function createUserDeletion(users: UserService, groups: GroupService, events: EventBus): UserDeletion {
  return {
    async remove(id, { hardDelete }) {
      const soleOwned = await users.soleOwnedGroups(id);
      if (soleOwned.length > 0 && !hardDelete) return 'sole-owner';
      // A hard delete also removes the groups only this user owns.
      for (const groupId of soleOwned) {
        const group = await groups.findById(groupId);
        if (group) await removeGroupAndNotify(groups, events, group);
      }
      const { projectIds } = await users.remove(id);
      for (const projectId of projectIds) await events.emit(coreEvents.projectDeleted, { projectId });
      await events.emit(coreEvents.userDeleted, { userId: id, hardDelete });
      return 'removed';
    },
  };
}
