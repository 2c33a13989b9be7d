import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** GitLab's `type` column: a user's SSH key, or a deploy key shared by projects. */
export type KeyKind = 'user' | 'deploy';
export type UsageType = 'auth_and_signing' | 'auth' | 'signing';

/**
 * An SSH public key: a user's (`kind` user) or a deploy key (`kind` deploy, `userId` its
 * creator). Fingerprints are unique across both kinds, as GitLab's `fingerprint_sha256` is.
 */
export const KeyEntity = defineEntity({
  name: 'Key',
  tableName: 'keys',
  uniques: [{ properties: ['fingerprintSha256'] }],
  indexes: [{ properties: ['userId'] }, { properties: ['fingerprint'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    kind: p.string().$type<KeyKind>().length(16),
    userId: p.integer().nullable(),
    title: p.string().length(255),
    key: p.text(),
    /** MD5, `aa:bb:…`. */
    fingerprint: p.string().length(64).nullable(),
    /** SHA256, unpadded base64 without the `SHA256:` prefix. */
    fingerprintSha256: p.string().length(64),
    usageType: p.string().$type<UsageType>().length(32).default('auth_and_signing'),
    /** Deploy keys an administrator made for every project (`POST /deploy_keys`). */
    public: p.boolean().default(false),
    expiresAt: p.datetime().nullable(),
    lastUsedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type KeyRow = InferEntity<typeof KeyEntity>;
