import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A pending invitation of an email address to a project or a group (GitLab keeps these as members without a user). */
export const InvitationEntity = defineEntity({
  name: 'Invitation',
  tableName: 'invitations',
  uniques: [{ properties: ['sourceType', 'sourceId', 'inviteEmail'] }, { properties: ['tokenDigest'] }],
  indexes: [{ properties: ['inviteEmail'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    /** `Project` or `Namespace`, as GitLab names member sources. */
    sourceType: p.string().$type<'Project' | 'Namespace'>().length(16),
    sourceId: p.integer(),
    /** Lower-cased, so one address is invited once per source. */
    inviteEmail: p.string().length(255),
    accessLevel: p.integer(),
    /** `YYYY-MM-DD`: when the membership it becomes expires. */
    expiresAt: p.string().length(10).nullable(),
    /** The digest of the token in the emailed link; the token itself is never stored. */
    tokenDigest: p.string().length(64),
    inviteSource: p.string().length(255),
    createdById: p.integer().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type InvitationRow = InferEntity<typeof InvitationEntity>;
