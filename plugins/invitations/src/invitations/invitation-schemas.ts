/** JSON Schemas of the invitation answers (`invitation-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

const expiresAt: JsonSchema = { type: ['string', 'null'], format: 'date' };

/** GitLab's Invitation: a pending invitation has no user, so `user_name` is null. */
export const invitationSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    invite_email: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
    access_level: { type: 'integer' },
    expires_at: expiresAt,
    user_name: { type: ['string', 'null'] },
    created_by_name: { type: ['string', 'null'] },
  },
  required: ['id', 'invite_email', 'created_at', 'access_level', 'expires_at', 'user_name', 'created_by_name'],
};

/** `POST /invitations/:token/accept`: the membership the invitation became. */
export const acceptedInvitationSchema: JsonSchema = {
  type: 'object',
  properties: {
    source_type: { type: 'string', enum: ['Project', 'Namespace'] },
    source_id: { type: 'integer' },
    user_id: { type: 'integer' },
    access_level: { type: 'integer' },
    expires_at: expiresAt,
  },
  required: ['source_type', 'source_id', 'user_id', 'access_level', 'expires_at'],
};
