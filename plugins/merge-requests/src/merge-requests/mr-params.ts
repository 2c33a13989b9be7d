/** The merge request endpoints' params, as GitLab's lib/api/merge_requests.rb and its helpers declare them. */
import { f, params, rules } from '@forgekit/kernel';
import * as v from 'valibot';

export const ORDER_BY = ['created_at', 'label_priority', 'milestone_due', 'popularity', 'priority', 'title', 'updated_at', 'merged_at'] as const;
const SCOPES = ['created-by-me', 'assigned-to-me', 'created_by_me', 'assigned_to_me', 'reviews_for_me', 'all'] as const;

/** An integer id or one of GitLab's wildcard words. */
const idOrWildcard = () =>
  v.pipe(
    f.string(),
    v.check((value) => /^\d+$/.test(value) || ['none', 'any'].includes(value.toLowerCase()), 'does not have a valid value'),
  );

const negatable = {
  labels: f.optional(f.commaList()),
  milestone: f.optional(f.string()),
  author_id: f.optional(f.id()),
  author_username: f.optional(f.string()),
  assignee_id: f.optional(f.id()),
  assignee_username: f.optional(f.string()),
  reviewer_id: f.optional(f.id()),
  reviewer_username: f.optional(f.string()),
  my_reaction_emoji: f.optional(f.string()),
};

const listEntries = {
  state: f.optional(f.values(['opened', 'closed', 'locked', 'merged', 'all'] as const), 'all'),
  order_by: f.optional(f.values(ORDER_BY), 'created_at'),
  sort: f.optional(f.values(['asc', 'desc'] as const), 'desc'),
  ...negatable,
  assignee_id: f.optional(idOrWildcard()),
  reviewer_id: f.optional(idOrWildcard()),
  merge_user_id: f.optional(f.id()),
  merge_user_username: f.optional(f.string()),
  approved_by_ids: f.optional(f.commaList()),
  approver_ids: f.optional(f.commaList()),
  approved: f.optional(f.values(['yes', 'no'] as const)),
  iids: f.optional(f.commaList(f.id())),
  source_branch: f.optional(f.string()),
  source_project_id: f.optional(f.id()),
  target_branch: f.optional(f.string()),
  search: f.optional(f.string()),
  in: f.optional(f.string()),
  wip: f.optional(f.values(['yes', 'no'] as const)),
  view: f.optional(f.values(['simple'] as const)),
  with_labels_details: f.optional(f.boolean(), false),
  with_merge_status_recheck: f.optional(f.boolean(), false),
  render_html: f.optional(f.boolean()),
  created_after: f.optional(f.datetime()),
  created_before: f.optional(f.datetime()),
  updated_after: f.optional(f.datetime()),
  updated_before: f.optional(f.datetime()),
  deployed_after: f.optional(f.datetime()),
  deployed_before: f.optional(f.datetime()),
  environment: f.optional(f.string()),
  not: f.optional(f.hash(negatable)),
};

const listRules = [
  rules.mutuallyExclusive('author_id', 'author_username'),
  rules.mutuallyExclusive('assignee_id', 'assignee_username'),
  rules.mutuallyExclusive('reviewer_id', 'reviewer_username'),
  rules.mutuallyExclusive('merge_user_id', 'merge_user_username'),
];

export const projectListParams = params({ ...listEntries, scope: f.optional(f.values(SCOPES), 'all') }, ...listRules);
/** `GET /merge_requests` lists the caller's own merge requests unless `scope` says otherwise. */
export const instanceListParams = params({ ...listEntries, scope: f.optional(f.values(SCOPES), 'created_by_me') }, ...listRules);
export type ListInput = v.InferOutput<(typeof projectListParams)['schema']>;

const writeEntries = {
  description: f.optional(f.string()),
  assignee_id: f.optional(f.id()),
  assignee_ids: f.optional(f.array(f.id())),
  reviewer_ids: f.optional(f.array(f.id())),
  milestone_id: f.optional(f.id()),
  labels: f.optional(f.commaList()),
  add_labels: f.optional(f.commaList()),
  remove_labels: f.optional(f.commaList()),
  remove_source_branch: f.optional(f.boolean()),
  squash: f.optional(f.boolean()),
  allow_collaboration: f.optional(f.boolean()),
  allow_maintainer_to_push: f.optional(f.boolean()),
};

export const createParams = params({
  title: f.string(),
  source_branch: f.string(),
  target_branch: f.string(),
  target_project_id: f.optional(f.id()),
  ...writeEntries,
});
export type CreateInput = v.InferOutput<(typeof createParams)['schema']>;

const UPDATE_FIELDS = [
  'allow_collaboration',
  'allow_maintainer_to_push',
  'assignee_id',
  'assignee_ids',
  'reviewer_ids',
  'description',
  'discussion_locked',
  'labels',
  'add_labels',
  'remove_labels',
  'milestone_id',
  'remove_source_branch',
  'state_event',
  'target_branch',
  'title',
  'squash',
];

export const updateParams = params(
  {
    title: f.optional(f.string()),
    target_branch: f.optional(f.string()),
    state_event: f.optional(f.values(['close', 'reopen'] as const)),
    discussion_locked: f.optional(f.boolean()),
    ...writeEntries,
  },
  rules.atLeastOneOf(...UPDATE_FIELDS),
);
export type UpdateInput = v.InferOutput<(typeof updateParams)['schema']>;

export const mergeParams = params({
  merge_commit_message: f.optional(f.string()),
  squash_commit_message: f.optional(f.string()),
  squash: f.optional(f.boolean()),
  should_remove_source_branch: f.optional(f.boolean()),
  merge_when_pipeline_succeeds: f.optional(f.boolean()),
  auto_merge: f.optional(f.boolean()),
  sha: f.optional(f.string()),
});
export type MergeInput = v.InferOutput<(typeof mergeParams)['schema']>;

/** `GET .../merge_requests/:merge_request_iid`. */
export const showParams = params({
  render_html: f.optional(f.boolean(), false),
  include_diverged_commits_count: f.optional(f.boolean(), false),
  include_rebase_in_progress: f.optional(f.boolean(), false),
});
