import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** One version of a merge request's diff (GitLab's merge_request_diffs): the shas it was taken between. */
export const MergeRequestVersionEntity = defineEntity({
  name: 'MergeRequestVersion',
  tableName: 'merge_request_versions',
  indexes: [{ properties: ['mergeRequestId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    mergeRequestId: p.integer(),
    headCommitSha: p.string().length(40),
    baseCommitSha: p.string().length(40).nullable(),
    startCommitSha: p.string().length(40).nullable(),
    createdAt: p.datetime(),
  }),
});

export type MergeRequestVersionRow = InferEntity<typeof MergeRequestVersionEntity>;
