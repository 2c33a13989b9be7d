/** JSON Schemas of the two-factor answers (`two-factor-service.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

export const twoFactorStatusSchema: JsonSchema = {
  type: 'object',
  properties: { enabled: { type: 'boolean' }, pending: { type: 'boolean' } },
  required: ['enabled', 'pending'],
};

/** A new enrolment: the secret, and the `otpauth://` URI an authenticator app reads. */
export const twoFactorEnrolmentSchema: JsonSchema = {
  type: 'object',
  properties: { secret: { type: 'string' }, provisioning_uri: { type: 'string', pattern: '^otpauth://' } },
  required: ['secret', 'provisioning_uri'],
};
