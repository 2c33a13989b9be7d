import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A user's identity at a group's SAML provider (GitLab's `identities` of provider `group_saml`). */
export const SamlIdentityEntity = defineEntity({
  name: 'SamlIdentity',
  tableName: 'saml_identities',
  uniques: [{ properties: ['samlProviderId', 'externUid'] }, { properties: ['samlProviderId', 'userId'] }],
  indexes: [{ properties: ['userId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    samlProviderId: p.integer(),
    userId: p.integer(),
    externUid: p.string().length(255),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type SamlIdentityRow = InferEntity<typeof SamlIdentityEntity>;
