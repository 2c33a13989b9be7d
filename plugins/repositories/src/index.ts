import { repositoriesPlugin } from './plugin.js';

export { repositoriesPlugin } from './plugin.js';
export { branchProtectionRef, repositoriesServiceRef } from './refs.js';
export type { BranchProtection } from './protected-branches/branch-protection.js';
export { PUSH_INTO_BRANCH, type BranchPolicy, type BranchProtectionDefaults } from './protected-branches/branch-policy.js';
export type { RepositoryService, RepositoryHandle, Pusher, RefsUpdated, ContainerDescriber } from './storage/repository-service.js';
export {
  REPOSITORY_KINDS,
  RepositoriesConfigSchema,
  diskPathFor,
  type RepositoryKey,
  type RepositoryKind,
  type RepositoriesConfig,
} from './storage/storages.js';
export type { CommitInfo, RefInfo, TreeEntry, BlobInfo, LogOptions } from './git/repo-reader.js';
export type { FileAction, CommitFilesRequest, GitIdentity, RefUpdate } from './git/commit-writer.js';
export type { TreeEdit } from './git/tree-edits.js';
export { RepositoryError, READ_ONLY_MESSAGE, type RepositoryErrorCode } from './git/repository-error.js';
export { commitEntity, commitDetailEntity, projectWebUrl, gitTime } from './commits/commit-presenter.js';
export { createProjectRepositories, canDownloadCode, canPushCode, type ProjectRepositories } from './shared/project-repository.js';
export { isValidRefName, isFullSha, isSafeRevision, MAX_PATH_BYTES, ZERO_SHA } from './git/ref-names.js';
export { isSafePath } from './shared/input-checks.js';
export { git, gitText, GitCommandError } from './git/git-runner.js';
export default repositoriesPlugin;
