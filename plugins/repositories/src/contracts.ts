/**
 * What other plugins may use of the repositories plugin: the repository service split by
 * what callers need (read, write, storage placement), branch protection, and the public
 * types and helpers that go with them.
 */
import { createServiceRef, defineEvent } from '@forgekit/kernel';
import type { GitPaths } from './git-http/git-paths.js';
import type { BranchProtection } from './protected-branches/branch-protection.js';
import type { ProjectRepositories } from './shared/project-repository.js';
import type { RepositoryPlacement } from './storage/repository-placement.js';
import type { RepositoryService } from './storage/repository-service.js';

/** Reading repositories: find one, read its refs, commits, trees and blobs; a project's repository for a request. */
export type RepositoryReads = Pick<
  RepositoryService,
  | 'storages'
  | 'find'
  | 'findById'
  | 'findAll'
  | 'resolveCommit'
  | 'branchHead'
  | 'branchHeads'
  | 'readCommit'
  | 'listCommits'
  | 'countCommits'
  | 'commitStats'
  | 'readCommitWithStats'
  | 'listRefs'
  | 'readTree'
  | 'entryAt'
  | 'readBlob'
  | 'readBlobById'
  | 'readBlobsById'
  | 'lastCommitFor'
  | 'mergeBase'
  | 'diff'
  | 'checkMerge'
  | 'hasBranches'
  | 'headBranch'
  | 'isEmptyOnDisk'
> &
  Pick<ProjectRepositories, 'forRead'>;

/** Writing repositories: create and remove them, commit, move refs; a project's repository for a write and the caller as pusher. */
export type RepositoryWrites = Pick<
  RepositoryService,
  | 'ensure'
  | 'remove'
  | 'commitFiles'
  | 'commitTreeEdits'
  | 'mergeInto'
  | 'createBranch'
  | 'deleteBranch'
  | 'createTag'
  | 'deleteTag'
  | 'setHeadBranch'
  | 'writing'
  | 'onRefsUpdated'
  | 'describeContainers'
> &
  Pick<ProjectRepositories, 'forWrite' | 'pusher'>;

export type { RepositoryPlacement };

export const repositoryReadRef = createServiceRef<RepositoryReads>('repositories.read');
export const repositoryWriteRef = createServiceRef<RepositoryWrites>('repositories.write');
/** Storages and moves between them: pick, copy and verify, switch, pause writes, clean up. */
export const repositoryPlacementRef = createServiceRef<RepositoryPlacement>('repositories.placement');

/**
 * The whole repository service in one. Prefer the read, write and placement refs; this one
 * stays for plugins that have not moved to them yet.
 */
export const repositoriesServiceRef = createServiceRef<RepositoryService>('repositories.service');

/**
 * Who may push to, merge into, force-push or delete a branch of a project:
 * `isProtected(project, branch)`, `canPush(user, project, branch)`, `canMerge`, `canDelete`,
 * `canForcePush(project, branch)`, and `policyFor(user, project)` for several checks at once.
 */
export const branchProtectionRef = createServiceRef<BranchProtection>('repositories.branch-protection');

/**
 * Other names for projects in git URLs: a resolver added with `addResolver(name => projectId | null)`
 * lets `/<name>.git` (a URL with no namespace) clone and push the project it names, with the
 * project's access rules. The project aliases plugin adds one. `addContainerResolver` serves
 * repositories that belong to no project (snippets) at their own paths, with their owner's rules.
 */
export const gitPathsRef = createServiceRef<GitPaths>('repositories.git-paths');

export type { GitPaths, GitPathResolver, GitContainer, GitContainerResolver } from './git-http/git-paths.js';
export type { BranchProtection } from './protected-branches/branch-protection.js';
export { PUSH_INTO_BRANCH, type BranchPolicy, type BranchProtectionDefaults } from './protected-branches/branch-policy.js';
export type { ProtectedBranch, AccessRule, ProtectionAction } from './protected-branches/protected-branch.js';
export type { RepositoryService, RepositoryHandle, Pusher, RefsUpdated, ContainerDescriber } from './storage/repository-service.js';
export type { ProjectRepositories, ProjectRepository } from './shared/project-repository.js';
export { REPOSITORY_KINDS, type RepositoryKey, type RepositoryKind } from './storage/storages.js';
export type { CommitInfo, RefInfo, TreeEntry, BlobInfo, LogOptions } from './git/repo-reader.js';
export type { FileAction, CommitFilesRequest, GitIdentity, RefUpdate } from './git/commit-writer.js';
export type { TreeEdit } from './git/tree-edits.js';
export type { MergeCheck, MergeRequestToGit, MergeResult } from './git/merge-writer.js';
export type { FileDiff } from './git/diff-reader.js';
export { RepositoryError, READ_ONLY_MESSAGE, type RepositoryErrorCode } from './git/repository-error.js';
export { commitEntity, commitDetailEntity, commitTitle, projectWebUrl, gitTime, hookCommitTitle } from './commits/commit-presenter.js';
export { diffEntity } from './compare/diff-presenter.js';
export { commitSchema, commitDetailSchema } from './commits/commit-schemas.js';
export { diffSchema } from './compare/diff-schemas.js';
export { isValidRefName, isFullSha, isSafeRevision, MAX_PATH_BYTES, ZERO_SHA } from './git/ref-names.js';
export { isSafePath } from './shared/input-checks.js';

/**
 * One updated ref of a project repository (a git push or an API write), emitted after the push
 * by the post-receive job: the ids, and GitLab's push hook payload fields (`object_kind` is
 * `push` or `tag_push`).
 */
export interface RepositoryPushed {
  projectId: number;
  userId: number | null;
  object_kind: 'push' | 'tag_push';
  ref: string;
  [field: string]: unknown;
}
export const repositoryEvents = { pushed: defineEvent<RepositoryPushed>('repository.pushed') };
/** The `project` and `repository` sections GitLab's hook payloads share. */
export { projectHookData } from './projects/push-events.js';
