import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/**
 * Why a user became an enterprise user: their email is on a domain the group verified, or the
 * group's SAML provisioned them (an identity at its provider).
 */
export type ClaimReason = 'verified_domain' | 'group_saml';

/** A user claimed by a top-level group as its enterprise user, with when and why. */
export const EnterpriseClaimEntity = defineEntity({
  name: 'EnterpriseClaim',
  tableName: 'enterprise_user_claims',
  indexes: [{ properties: ['groupId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    /** A user belongs to one enterprise group at most. */
    userId: p.integer().unique(),
    groupId: p.integer(),
    reason: p.string().$type<ClaimReason>().length(32),
    /** The verified domain the user's email was on (null for a SAML claim). */
    domain: p.string().length(255).nullable(),
    claimedAt: p.datetime(),
  }),
});

export type EnterpriseClaimRow = InferEntity<typeof EnterpriseClaimEntity>;
