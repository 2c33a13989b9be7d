/**
 * Follows promotions: a project label or milestone merged into a group one leaves its
 * issues carrying the group one (GitLab's promote services move the links, then destroy
 * the old records).
 */
import type { Database } from '@forgekit/kernel';
import { mergeLinks } from '@forgekit/kernel/orm';
import { IssueEntity } from '../entities/issue.js';
import { IssueLabelEntity } from '../entities/issue-label.js';
import { touchIssues } from './issue-store.js';

export function createPromotionMerges(database: Database) {
  return {
    /** Each issue keeps one link to `to`: its first link to a merged label moves, the others go. */
    async relinkLabels(from: readonly number[], to: number): Promise<void> {
      if (from.length === 0) return;
      await database.transaction(async (tx) => {
        const links = await database.rows(
          database
            .from(IssueLabelEntity)
            .whereIn('labelId', [...from, to])
            .orderBy('id'),
          { tx },
        );
        const { moved, dropped } = mergeLinks(
          links,
          (link) => link.labelId === to,
          (link) => link.issueId,
        );
        const changed = new Set([...moved, ...dropped]);
        await touchIssues(
          database,
          tx,
          links.filter((link) => changed.has(link.id)).map((link) => link.issueId),
        );
        if (dropped.length > 0) await database.delete(IssueLabelEntity, { id: { $in: dropped } }, { tx });
        if (moved.length > 0) await database.update(IssueLabelEntity, { id: { $in: moved } }, { labelId: to }, { tx });
      });
    },

    async moveMilestone(from: readonly number[], to: number): Promise<void> {
      if (from.length > 0) await database.update(IssueEntity, { milestoneId: { $in: [...from] } }, { milestoneId: to });
    },
  };
}
