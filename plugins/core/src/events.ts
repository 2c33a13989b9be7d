/** What the core plugin announces; other plugins listen to clean up or react. */
import { defineEvent } from '@forgekit/kernel';

/** A membership as it is (added, updated) or was (removed): what a member webhook needs besides names. */
export interface MemberEventPayload {
  memberId: number;
  sourceType: 'Project' | 'Namespace';
  sourceId: number;
  userId: number;
  accessLevel: number;
  /** `YYYY-MM-DD`. */
  expiresAt: string | null;
}

export const coreEvents = {
  projectCreated: defineEvent<{ projectId: number; initializeWithReadme: boolean | null; userId: number }>('project.created'),
  projectUpdated: defineEvent<{ projectId: number }>('project.updated'),
  projectDeleted: defineEvent<{ projectId: number }>('project.deleted'),
  groupCreated: defineEvent<{ groupId: number }>('group.created'),
  groupUpdated: defineEvent<{ groupId: number }>('group.updated'),
  groupDeleted: defineEvent<{ groupId: number }>('group.deleted'),
  userCreated: defineEvent<{ userId: number }>('user.created'),
  /** The user's email is now theirs, confirmed: on creation without confirmation, or when an administrator changes it. */
  userEmailConfirmed: defineEvent<{ userId: number; email: string }>('user.email_confirmed'),
  /** `hardDelete`: the admin asked for `hard_delete`, so the user's contributions go too instead of passing to the Ghost User. */
  userDeleted: defineEvent<{ userId: number; hardDelete?: boolean }>('user.deleted'),
  memberAdded: defineEvent<MemberEventPayload>('member.added'),
  memberUpdated: defineEvent<MemberEventPayload>('member.updated'),
  memberRemoved: defineEvent<MemberEventPayload>('member.removed'),
};
