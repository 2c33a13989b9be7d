/** GitLab's Tag entity. */
import type { CommitInfo, RefInfo } from '../git/repo-reader.js';
import { commitEntity, gitTime } from '../commits/commit-presenter.js';

export function tagEntity(tag: RefInfo, commit: CommitInfo, projectUrl: string) {
  return {
    name: tag.name,
    message: tag.tagMessage ?? '',
    target: tag.targetId,
    commit: commitEntity(commit, projectUrl),
    release: null,
    protected: false,
    created_at: tag.tagDate ? gitTime(tag.tagDate) : null,
  };
}
