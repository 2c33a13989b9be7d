/**
 * A refused repository operation. The message is the text GitLab gives for the same
 * refusal, so routes can pass it on as `{"message": ...}`.
 */
export class RepositoryError extends Error {
  constructor(
    readonly code: RepositoryErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export type RepositoryErrorCode =
  | 'read_only'
  | 'invalid_path'
  | 'file_exists'
  | 'file_missing'
  | 'directory_exists'
  | 'file_changed'
  | 'not_on_branch'
  | 'branch_exists'
  | 'invalid_branch'
  | 'invalid_start_sha'
  | 'missing_start_sha'
  | 'ref_update'
  | 'invalid_ref'
  | 'tag_exists'
  | 'invalid_tag'
  | 'invalid_target'
  | 'default_branch'
  | 'not_found'
  | 'invalid_submodule'
  | 'submodule_unchanged'
  | 'empty_repository'
  | 'merge_conflict'
  | 'not_fast_forward';

export const READ_ONLY_MESSAGE = 'The repository is temporarily read-only. Please try again later.';
