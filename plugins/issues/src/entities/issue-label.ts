import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A label on an issue (the label belongs to the labels plugin). */
export const IssueLabelEntity = defineEntity({
  name: 'IssueLabel',
  tableName: 'issue_labels',
  uniques: [{ properties: ['issueId', 'labelId'] }],
  indexes: [{ properties: ['labelId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    issueId: p.integer(),
    labelId: p.integer(),
    createdAt: p.datetime(),
  }),
});

export type IssueLabelRow = InferEntity<typeof IssueLabelEntity>;
