/** The issue list filters (GitLab's IssuesFinder) as conditions over `issues as i`. */
import type { Conditions, IdQuery, Query } from '@forgekit/kernel/orm';
import type { IssueEntity } from '../entities/issue.js';
import { IssueAssigneeEntity } from '../entities/issue-assignee.js';
import { IssueLabelEntity } from '../entities/issue-label.js';
import type { DueDateFilter } from './due-date-filter.js';

/** Which confidential issues the caller sees: all, or those of some projects plus their own and assigned ones. */
export type ConfidentialVisibility = { all: true } | { all: false; projectIds: readonly number[]; userId: number | null };

export type Wildcard = 'none' | 'any';

/** Negated filters (`not[...]`): an issue matching any of them is left out. */
export interface NegatedFilter {
  iids?: readonly number[];
  authorIds?: readonly number[];
  assigneeIds?: readonly number[];
  /** Label ids per title; an issue with a label of any title is left out. */
  labels?: readonly (readonly number[])[];
  milestoneIds?: readonly number[];
  /** Iteration ids; issues without an iteration stay in, as GitLab's not_in_iterations. */
  iterationIds?: readonly number[];
}

export interface IssueFilter {
  /** Projects in scope, as ids or a query of ids; null: every project. */
  projectIds: readonly number[] | IdQuery | null;
  confidentialVisibility: ConfidentialVisibility;
  state?: 'opened' | 'closed';
  iids?: readonly number[];
  authorIds?: readonly number[];
  /** Wildcard, or users all of whom are assigned. */
  assignee?: Wildcard | readonly number[];
  /** Wildcard, or label ids per title: an issue needs a label of each title. */
  labels?: Wildcard | readonly (readonly number[])[];
  milestone?: Wildcard | readonly number[];
  iteration?: Wildcard | readonly number[];
  search?: { text: string; in: readonly ('title' | 'description')[] };
  createdAfter?: Date;
  createdBefore?: Date;
  updatedAfter?: Date;
  updatedBefore?: Date;
  confidential?: boolean;
  dueDate?: DueDateFilter;
  not?: NegatedFilter;
}

const NOTHING = [-1];
const orNothing = (ids: readonly number[]) => (ids.length > 0 ? [...ids] : NOTHING);

/** The entities a filter names: the issue, as `i`. */
export type IssueScope = { i: typeof IssueEntity };
type OverIssues = Conditions<IssueScope, 'i'>;
type Assignees = Query<IssueScope & { a: typeof IssueAssigneeEntity }, 'a'>;
type Labels = Query<IssueScope & { l: typeof IssueLabelEntity }, 'l'>;

const anyAssignee = (a: Assignees) => a.whereColumn('a.issueId', 'i.id');
const assigned = (userId: number) => (a: Assignees) => anyAssignee(a).where('a.userId', userId);
const labelled = (labelIds?: readonly number[]) => (l: Labels) => {
  l.whereColumn('l.issueId', 'i.id');
  if (labelIds) l.whereIn('l.labelId', orNothing(labelIds));
};

/** Narrows `query`, any query that names the issue as `i`, to the issues `filter` keeps. */
export function applyIssueFilter<Q extends Query<any, any, any>>(query: Q, filter: IssueFilter): Q {
  const q = query as unknown as OverIssues;
  if (filter.projectIds) q.whereIn('i.projectId', Array.isArray(filter.projectIds) ? orNothing(filter.projectIds) : filter.projectIds);
  const visibility = filter.confidentialVisibility;
  if (!visibility.all) {
    q.where((w) => {
      w.where('i.confidential', false);
      if (visibility.projectIds.length > 0) w.orWhereIn('i.projectId', visibility.projectIds);
      if (visibility.userId !== null) w.orWhere('i.authorId', visibility.userId).orWhereExists(IssueAssigneeEntity, 'a', assigned(visibility.userId));
    });
  }
  if (filter.state) q.where('i.state', filter.state);
  if (filter.iids) q.whereIn('i.iid', orNothing(filter.iids));
  if (filter.authorIds) q.whereIn('i.authorId', orNothing(filter.authorIds));
  if (filter.assignee === 'none') q.whereNotExists(IssueAssigneeEntity, 'a', anyAssignee);
  else if (filter.assignee === 'any') q.whereExists(IssueAssigneeEntity, 'a', anyAssignee);
  else if (filter.assignee) for (const userId of filter.assignee) q.whereExists(IssueAssigneeEntity, 'a', assigned(userId));
  if (filter.labels === 'none') q.whereNotExists(IssueLabelEntity, 'l', labelled());
  else if (filter.labels === 'any') q.whereExists(IssueLabelEntity, 'l', labelled());
  else if (filter.labels) for (const ids of filter.labels) q.whereExists(IssueLabelEntity, 'l', labelled(ids));
  applyNullable(q, 'i.milestoneId', filter.milestone);
  applyNullable(q, 'i.iterationId', filter.iteration);
  if (filter.search) {
    const columns = filter.search.in.length > 0 ? filter.search.in : (['title', 'description'] as const);
    q.whereContains(
      columns.map((column) => `i.${column}` as const),
      filter.search.text,
    );
  }
  if (filter.createdAfter) q.where('i.createdAt', '>=', filter.createdAfter);
  if (filter.createdBefore) q.where('i.createdAt', '<=', filter.createdBefore);
  if (filter.updatedAfter) q.where('i.updatedAt', '>=', filter.updatedAfter);
  if (filter.updatedBefore) q.where('i.updatedAt', '<=', filter.updatedBefore);
  if (filter.confidential !== undefined) q.where('i.confidential', filter.confidential);
  const due = filter.dueDate;
  if (due === 'none') q.whereNull('i.dueDate');
  else if (due === 'any') q.whereNotNull('i.dueDate');
  else if (due) {
    if (due.from) q.where('i.dueDate', '>=', due.from);
    if (due.to) q.where('i.dueDate', '<=', due.to);
  }

  const not = filter.not;
  if (not?.iids) q.whereNotIn('i.iid', not.iids);
  if (not?.authorIds) q.whereNotIn('i.authorId', not.authorIds);
  if (not?.assigneeIds) for (const userId of not.assigneeIds) q.whereNotExists(IssueAssigneeEntity, 'a', assigned(userId));
  if (not?.labels) for (const ids of not.labels) q.whereNotExists(IssueLabelEntity, 'l', labelled(ids));
  if (not?.milestoneIds) q.where((w) => w.whereNull('i.milestoneId').orWhereNotIn('i.milestoneId', orNothing(not.milestoneIds ?? [])));
  if (not?.iterationIds) q.where((w) => w.whereNull('i.iterationId').orWhereNotIn('i.iterationId', orNothing(not.iterationIds ?? [])));
  return query;
}

function applyNullable(q: OverIssues, column: 'i.milestoneId' | 'i.iterationId', value: Wildcard | readonly number[] | undefined) {
  if (value === 'none') q.whereNull(column);
  else if (value === 'any') q.whereNotNull(column);
  else if (value) q.whereIn(column, orNothing(value));
}
