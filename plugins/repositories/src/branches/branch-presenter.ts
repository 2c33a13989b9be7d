/** GitLab's Branch entity. */
import type { CommitInfo } from '../git/repo-reader.js';
import { commitEntity } from '../commits/commit-presenter.js';

export interface BranchView {
  name: string;
  commit: CommitInfo;
  merged: boolean;
  isDefault: boolean;
  protected: boolean;
  developersCanPush: boolean;
  developersCanMerge: boolean;
  canPush: boolean;
}

export function branchEntity(branch: BranchView, projectUrl: string) {
  return {
    name: branch.name,
    commit: commitEntity(branch.commit, projectUrl),
    merged: branch.merged,
    protected: branch.protected,
    developers_can_push: branch.developersCanPush,
    developers_can_merge: branch.developersCanMerge,
    can_push: branch.canPush,
    default: branch.isDefault,
    web_url: `${projectUrl}/-/tree/${branch.name}`,
  };
}
