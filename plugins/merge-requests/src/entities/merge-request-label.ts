import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A label on a merge request (the label belongs to the labels plugin). */
export const MergeRequestLabelEntity = defineEntity({
  name: 'MergeRequestLabel',
  tableName: 'merge_request_labels',
  uniques: [{ properties: ['mergeRequestId', 'labelId'] }],
  indexes: [{ properties: ['labelId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    mergeRequestId: p.integer(),
    labelId: p.integer(),
  }),
});

export type MergeRequestLabelRow = InferEntity<typeof MergeRequestLabelEntity>;
