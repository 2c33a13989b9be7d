import type { User } from '@forgekit/plugin-core/contracts';
import type { InvitationRow } from '../entities/invitation.js';

/** GitLab's `Entities::Invitation`; a pending invitation has no user, so `user_name` is null. */
export const presentInvitation = (row: InvitationRow, creators: Map<number, User>) => ({
  id: row.id,
  invite_email: row.inviteEmail,
  created_at: row.createdAt.toISOString(),
  access_level: row.accessLevel,
  expires_at: row.expiresAt,
  user_name: null,
  created_by_name: (row.createdById && creators.get(row.createdById)?.name) ?? null,
});
