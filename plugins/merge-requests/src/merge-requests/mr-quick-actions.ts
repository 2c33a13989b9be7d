/** The quick actions a note on a merge request may hold: `/merge`. */
import { ApiError, type Principal } from '@forgekit/kernel';
import type { AccessService } from '@forgekit/plugin-core/contracts';
import type { FoundNoteable, QuickAction, QuickActionContext, QuickActionResult, QuickActions } from '@forgekit/plugin-notes/contracts';
import type { RepositoryWrites } from '@forgekit/plugin-repositories/contracts';
import type { MergeInput } from './mr-params.js';
import type { MergeRequestService } from './mr-service.js';
import type { MergeRequestStore } from './mr-store.js';

interface Dependencies {
  service: Pick<MergeRequestService, 'merge' | 'mergeableBy'>;
  store: Pick<MergeRequestStore, 'findById'>;
  access: Pick<AccessService, 'requireProject'>;
  writes: Pick<RepositoryWrites, 'pusher'>;
}

export function mergeRequestQuickActions({ service, store, access, writes }: Dependencies): QuickActions {
  return {
    names: ['merge'],
    async available(user: Principal, noteable: FoundNoteable) {
      const mr = await store.findById(noteable.id);
      if (!mr) return [];
      const projectAccess = await access.requireProject(user, String(noteable.projectId));
      return (await service.mergeableBy(user, projectAccess, mr)) ? ['merge'] : [];
    },
    async run(user: Principal, noteable: FoundNoteable, actions: readonly QuickAction[], context: QuickActionContext = {}): Promise<QuickActionResult> {
      const sha = context.mergeRequestDiffHeadSha ?? null;
      // GitLab merges from a note only with the head the author saw (`merge_request_diff_head_sha`);
      // without it, or with another, the command does nothing.
      if (sha === null || !actions.some((action) => action.name === 'merge')) return { changes: {}, summary: [] };
      const mr = await store.findById(noteable.id);
      if (!mr) return { changes: {}, summary: [] };
      const projectAccess = await access.requireProject(user, String(noteable.projectId));
      const input: MergeInput = {
        sha,
        merge_commit_message: null,
        squash_commit_message: null,
        squash: null,
        should_remove_source_branch: null,
        merge_when_pipeline_succeeds: null,
        auto_merge: null,
      };
      try {
        await service.merge(user, projectAccess, mr, input, await writes.pusher(user));
      } catch (error) {
        // Refusals (who may merge, not mergeable, a moved head) leave the merge request as it is.
        if (error instanceof ApiError) return { changes: {}, summary: [] };
        throw error;
      }
      return { changes: { merge: sha }, summary: ['Merged this merge request.'] };
    },
  };
}
