import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

export const MemberEntity = defineEntity({
  name: 'Member',
  tableName: 'members',
  uniques: [{ properties: ['sourceType', 'sourceId', 'userId'] }],
  indexes: [{ properties: ['userId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    /** `Project` or `Namespace`, as GitLab names member sources. */
    sourceType: p.string().$type<'Project' | 'Namespace'>().length(16),
    sourceId: p.integer(),
    userId: p.integer(),
    accessLevel: p.integer(),
    /** `YYYY-MM-DD`. */
    expiresAt: p.string().length(10).nullable(),
    createdById: p.integer().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type MemberRow = InferEntity<typeof MemberEntity>;
