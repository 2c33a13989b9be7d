import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A top-level group's SAML identity provider (GitLab's `saml_providers`). */
export const SamlProviderEntity = defineEntity({
  name: 'SamlProvider',
  tableName: 'saml_providers',
  properties: (p) => ({
    id: p.integer().primary(),
    groupId: p.integer().unique(),
    enabled: p.boolean().default(true),
    ssoUrl: p.string().length(2048),
    certificateFingerprint: p.string().length(255),
    defaultMembershipRole: p.integer().default(10),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type SamlProviderRow = InferEntity<typeof SamlProviderEntity>;
