import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

export type MergeRequestUserRole = 'assignee' | 'reviewer';

/** A user assigned to, or asked to review, a merge request. */
export const MergeRequestUserEntity = defineEntity({
  name: 'MergeRequestUser',
  tableName: 'merge_request_users',
  uniques: [{ properties: ['mergeRequestId', 'role', 'userId'] }],
  indexes: [{ properties: ['userId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    mergeRequestId: p.integer(),
    role: p.string().$type<MergeRequestUserRole>().length(16),
    userId: p.integer(),
  }),
});

export type MergeRequestUserRow = InferEntity<typeof MergeRequestUserEntity>;
