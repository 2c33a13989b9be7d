import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A SAML group name mapped to a membership level in a group (GitLab's `saml_group_links`). */
export const SamlGroupLinkEntity = defineEntity({
  name: 'SamlGroupLink',
  tableName: 'saml_group_links',
  indexes: [{ properties: ['groupId', 'name'] }, { properties: ['rootGroupId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    groupId: p.integer(),
    /** The top-level group whose provider's sign-ins apply the link. */
    rootGroupId: p.integer(),
    name: p.string().length(255),
    accessLevel: p.integer(),
    memberRoleId: p.integer().nullable(),
    /** The provider a sign-in must come from for the link to apply; null for any. */
    provider: p.string().length(255).nullable(),
    createdAt: p.datetime(),
  }),
});

export type SamlGroupLinkRow = InferEntity<typeof SamlGroupLinkEntity>;
