/** What the core plugin announces; other plugins listen to clean up or react. */
import { defineEvent } from '@forgekit/kernel';

export const coreEvents = {
  projectCreated: defineEvent<{ projectId: number; initializeWithReadme: boolean | null; userId: number }>('project.created'),
  projectUpdated: defineEvent<{ projectId: number }>('project.updated'),
  projectDeleted: defineEvent<{ projectId: number }>('project.deleted'),
  groupCreated: defineEvent<{ groupId: number }>('group.created'),
  groupUpdated: defineEvent<{ groupId: number }>('group.updated'),
  groupDeleted: defineEvent<{ groupId: number }>('group.deleted'),
  userDeleted: defineEvent<{ userId: number }>('user.deleted'),
};
