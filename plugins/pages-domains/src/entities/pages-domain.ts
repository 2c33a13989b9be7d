import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** Where a domain's certificate came from: uploaded by a user, or issued automatically. */
export type CertificateSource = 'user_provided' | 'service_provided';

/** A custom domain serving a project's Pages site (GitLab's `pages_domains`). */
export const PagesDomainEntity = defineEntity({
  name: 'PagesDomain',
  tableName: 'pages_domains',
  indexes: [{ properties: ['projectId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    projectId: p.integer(),
    /** Lower case, so the unique index makes names unique regardless of case. */
    domain: p.string().length(255).unique(),
    certificate: p.text().nullable(),
    /** The private key, sealed with the instance's secrets key. */
    sealedKey: p.text().nullable(),
    certificateSource: p.string().$type<CertificateSource>().length(32).default('user_provided'),
    autoSslEnabled: p.boolean().default(false),
    verificationCode: p.string().length(32),
    verifiedAt: p.datetime().nullable(),
    enabledUntil: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type PagesDomainRow = InferEntity<typeof PagesDomainEntity>;
