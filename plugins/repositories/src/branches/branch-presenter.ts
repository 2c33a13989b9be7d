/** GitLab's Branch entity. */
import type { CommitInfo } from '../git/repo-reader.js';
import { commitEntity } from '../commits/commit-presenter.js';

export interface BranchView {
  name: string;
  commit: CommitInfo;
  merged: boolean;
  isDefault: boolean;
  canPush: boolean;
}

export function branchEntity(branch: BranchView, projectUrl: string) {
  return {
    name: branch.name,
    commit: commitEntity(branch.commit, projectUrl),
    merged: branch.merged,
    protected: false,
    developers_can_push: false,
    developers_can_merge: false,
    can_push: branch.canPush,
    default: branch.isDefault,
    web_url: `${projectUrl}/-/tree/${branch.name}`,
  };
}
