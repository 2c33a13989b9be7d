/** JSON Schemas of the member answers (`presentMember`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';
import { userBasicSchema } from '../users/user-schemas.js';

/** GitLab's Member: the user, with the membership's level and dates; `created_by` when someone is recorded. */
export const memberSchema: JsonSchema = {
  allOf: [
    userBasicSchema,
    {
      type: 'object',
      properties: {
        access_level: { type: 'integer' },
        created_at: { type: 'string', format: 'date-time' },
        created_by: userBasicSchema,
        expires_at: { type: ['string', 'null'], format: 'date' },
        membership_state: { type: 'string' },
      },
      required: ['access_level', 'created_at', 'expires_at', 'membership_state'],
    },
  ],
};

/**
 * What adding several members (or invitations) at once answers: `success`, or `error` with a
 * message, a text or a refusal for each user or email that was not added.
 */
export const bulkMembershipResultSchema: JsonSchema = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['success', 'error'] },
    message: { anyOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'string' } }] },
  },
  required: ['status'],
};
