import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A user assigned to an issue. */
export const IssueAssigneeEntity = defineEntity({
  name: 'IssueAssignee',
  tableName: 'issue_assignees',
  uniques: [{ properties: ['issueId', 'userId'] }],
  indexes: [{ properties: ['userId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    issueId: p.integer(),
    userId: p.integer(),
  }),
});

export type IssueAssigneeRow = InferEntity<typeof IssueAssigneeEntity>;
