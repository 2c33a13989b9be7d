/** The issue endpoints' params, as GitLab's lib/api/issues.rb declares them. */
import { f, params, rules } from '@forgekit/kernel';
import * as v from 'valibot';
import { DUE_DATE_FILTERS } from './due-date-filter.js';

export const ORDER_BY = [
  'created_at',
  'due_date',
  'label_priority',
  'milestone_due',
  'popularity',
  'priority',
  'relative_position',
  'title',
  'updated_at',
] as const;
const SCOPES = ['created-by-me', 'assigned-to-me', 'created_by_me', 'assigned_to_me', 'all'] as const;

/** An integer id or one of GitLab's wildcard words. */
const idOrWildcard = (words: readonly string[]) =>
  v.pipe(
    f.string(),
    v.check((value) => /^\d+$/.test(value) || words.some((word) => word.toLowerCase() === value.toLowerCase()), 'does not have a valid value'),
  );

/** GitLab's CheckAssigneesCount coercion: one username arrives as a list of one (commas are not split). */
const usernames = () =>
  v.pipe(
    v.unknown(),
    v.transform((value) => (typeof value === 'string' && value !== '' ? [value] : value)),
    f.array(f.string()),
  );

const negatable = {
  labels: f.optional(f.commaList()),
  milestone: f.optional(f.string()),
  author_id: f.optional(f.id()),
  author_username: f.optional(f.string()),
  assignee_id: f.optional(f.id()),
  assignee_username: f.optional(usernames()),
  // CommaSeparatedToIntegerArray: `iids=1,2` as well as `iids[]=1&iids[]=2`.
  iids: f.optional(f.commaList(f.id())),
};

const listEntries = {
  state: f.optional(f.values(['opened', 'closed', 'all'] as const), 'all'),
  ...negatable,
  assignee_id: f.optional(idOrWildcard(['None', 'Any'])),
  milestone_id: f.optional(f.values(['None', 'Any', 'Upcoming', 'Started'] as const)),
  iteration_id: f.optional(idOrWildcard(['None', 'Any', 'Current'])),
  iteration_title: f.optional(f.string()),
  due_date: f.optional(f.values(DUE_DATE_FILTERS)),
  search: f.optional(f.string()),
  in: f.optional(f.commaList(f.values(['title', 'description'] as const))),
  created_after: f.optional(f.datetime()),
  created_before: f.optional(f.datetime()),
  updated_after: f.optional(f.datetime()),
  updated_before: f.optional(f.datetime()),
  confidential: f.optional(f.boolean()),
  order_by: f.optional(f.values(ORDER_BY), 'created_at'),
  sort: f.optional(f.values(['asc', 'desc'] as const), 'desc'),
  with_labels_details: f.optional(f.boolean(), false),
  // EE adds the iteration to the negatable filters.
  not: f.optional(f.hash({ ...negatable, iteration_id: f.optional(idOrWildcard(['None', 'Any', 'Current'])), iteration_title: f.optional(f.string()) })),
};

const listRules = [
  rules.mutuallyExclusive('author_id', 'author_username'),
  rules.mutuallyExclusive('assignee_id', 'assignee_username'),
  rules.mutuallyExclusive('milestone', 'milestone_id'),
  rules.mutuallyExclusive('iteration_id', 'iteration_title'),
];

export const projectListParams = params({ ...listEntries, scope: f.optional(f.values(SCOPES), 'all') }, ...listRules);
/** `GET /issues` lists the caller's own issues unless `scope` says otherwise. */
export const instanceListParams = params({ ...listEntries, scope: f.optional(f.values(SCOPES), 'created_by_me') }, ...listRules);

export type ListInput = v.InferOutput<(typeof projectListParams)['schema']>;

const writeEntries = {
  description: f.optional(f.string()),
  assignee_ids: f.optional(f.array(f.id())),
  assignee_id: f.optional(f.id()),
  milestone_id: f.optional(f.id()),
  iteration_id: f.optional(f.id()),
  labels: f.optional(f.commaList()),
  add_labels: f.optional(f.commaList()),
  remove_labels: f.optional(f.commaList()),
  due_date: f.optional(f.string()),
  confidential: f.optional(f.boolean()),
  discussion_locked: f.optional(f.boolean()),
  created_at: f.optional(f.datetime()),
};

export const createParams = params({ title: f.string(), ...writeEntries, iid: f.optional(f.chosenIid()) });
export type CreateInput = v.InferOutput<(typeof createParams)['schema']>;

/** GitLab's update_params_at_least_one_of, with the iteration EE adds. */
const UPDATE_FIELDS = [
  'assignee_id',
  'assignee_ids',
  'confidential',
  'created_at',
  'description',
  'discussion_locked',
  'due_date',
  'labels',
  'add_labels',
  'remove_labels',
  'milestone_id',
  'state_event',
  'title',
  'issue_type',
  'iteration_id',
];

export const updateParams = params(
  {
    title: f.optional(f.string()),
    ...writeEntries,
    state_event: f.optional(f.values(['reopen', 'close'] as const)),
    issue_type: f.optional(f.values(['issue', 'incident', 'test_case', 'task'] as const)),
    updated_at: f.optional(f.datetime()),
  },
  rules.atLeastOneOf(...UPDATE_FIELDS),
);
export type UpdateInput = v.InferOutput<(typeof updateParams)['schema']>;
