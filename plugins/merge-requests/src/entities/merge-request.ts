import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';
import type { MergeRequestState } from '../contracts.js';

/**
 * A merge request between two branches of one project; `iid` counts per project. The
 * `*Sha` columns keep what git said when the merge request stopped being open, since its
 * branches may move or go away afterwards.
 */
export const MergeRequestEntity = defineEntity({
  name: 'MergeRequest',
  tableName: 'merge_requests',
  uniques: [{ properties: ['projectId', 'iid'] }],
  indexes: [
    { properties: ['authorId'] },
    { properties: ['milestoneId'] },
    { properties: ['projectId', 'sourceBranch', 'state'] },
    { properties: ['createdAt', 'id'] },
  ],
  properties: (p) => ({
    id: p.integer().primary(),
    projectId: p.integer(),
    iid: p.integer(),
    title: p.string().length(255),
    description: p.text().nullable(),
    state: p.string().$type<MergeRequestState>().length(16).default('opened'),
    /** From the title's draft prefix, kept for the `wip` filter. */
    draft: p.boolean().default(false),
    sourceBranch: p.string().length(255),
    targetBranch: p.string().length(255),
    authorId: p.integer(),
    milestoneId: p.integer().nullable(),
    discussionLocked: p.boolean().nullable(),
    squash: p.boolean().default(false),
    forceRemoveSourceBranch: p.boolean().default(false),
    headSha: p.string().length(40).nullable(),
    baseSha: p.string().length(40).nullable(),
    startSha: p.string().length(40).nullable(),
    mergeCommitSha: p.string().length(40).nullable(),
    squashCommitSha: p.string().length(40).nullable(),
    mergedById: p.integer().nullable(),
    mergedAt: p.datetime().nullable(),
    closedById: p.integer().nullable(),
    closedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    /** Raised by every update: the presented cache's version of the row. */
    lockVersion: p.integer().version().default(0),
  }),
});

export type MergeRequestRow = InferEntity<typeof MergeRequestEntity>;
