import type { MergeRequest, MergeRequestsService } from '../contracts.js';
import type { MergeRequestRow } from '../entities/merge-request.js';
import type { MergeRequestStore } from './mr-store.js';

/** The contract's view of merge requests: rows with their assignees, reviewers and labels. */
export function createMergeRequestReads(store: MergeRequestStore): MergeRequestsService {
  async function describe(rows: readonly MergeRequestRow[]): Promise<MergeRequest[]> {
    const relations = await store.relationsOf(rows.map((row) => row.id));
    return rows.map((row) => ({
      id: row.id,
      iid: row.iid,
      projectId: row.projectId,
      title: row.title,
      state: row.state,
      sourceBranch: row.sourceBranch,
      targetBranch: row.targetBranch,
      authorId: row.authorId,
      description: row.description ?? null,
      draft: row.draft,
      milestoneId: row.milestoneId ?? null,
      headSha: row.headSha ?? null,
      mergeCommitSha: row.mergeCommitSha ?? null,
      mergedAt: row.mergedAt ?? null,
      closedAt: row.closedAt ?? null,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      assigneeIds: relations.assignees.get(row.id) ?? [],
      reviewerIds: relations.reviewers.get(row.id) ?? [],
      labelIds: relations.labels.get(row.id) ?? [],
    }));
  }
  return {
    async findById(id) {
      const row = await store.findById(id);
      return row ? (await describe([row]))[0]! : null;
    },
    byIds: async (ids) => describe(await store.byIds(ids)),
    async latestOf(projectId) {
      const row = await store.latestOf(projectId);
      return row ? (await describe([row]))[0] : undefined;
    },
  };
}
