import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A user's TOTP authenticator: pending until a first code confirms it. */
export const TwoFactorEntity = defineEntity({
  name: 'TwoFactor',
  tableName: 'user_two_factors',
  properties: (p) => ({
    id: p.integer().primary(),
    userId: p.integer().unique(),
    /** The base32 TOTP secret, sealed with the instance's secrets key. */
    sealedSecret: p.text(),
    /** Null while the enrolment waits for its first code. */
    enabledAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type TwoFactorRow = InferEntity<typeof TwoFactorEntity>;
