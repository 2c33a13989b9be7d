/** The issue list filters (GitLab's IssuesFinder) as conditions over `issues as i`. */
import type { Database } from '@forgekit/kernel';
import { containsText, type Knex } from '@forgekit/kernel/orm';
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
  /** Projects in scope; null: every project. */
  projectIds: readonly number[] | null;
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

export function applyIssueFilter(database: Database, query: Knex.QueryBuilder, filter: IssueFilter): Knex.QueryBuilder {
  const knex = database.legacy.knex;
  const assigned = (userId: number) => knex('issue_assignees as a').select(knex.raw('1')).whereRaw('a.issue_id = i.id').where('a.user_id', userId);
  const labelled = (labelIds?: readonly number[]) => {
    const sub = knex('issue_labels as l').select(knex.raw('1')).whereRaw('l.issue_id = i.id');
    return labelIds ? sub.whereIn('l.label_id', orNothing(labelIds)) : sub;
  };

  if (filter.projectIds) query.whereIn('i.project_id', orNothing(filter.projectIds));
  const visibility = filter.confidentialVisibility;
  if (!visibility.all) {
    query.where((q) => {
      q.where('i.confidential', false);
      if (visibility.projectIds.length > 0) q.orWhereIn('i.project_id', [...visibility.projectIds]);
      if (visibility.userId !== null) q.orWhere('i.author_id', visibility.userId).orWhereExists(assigned(visibility.userId));
    });
  }
  if (filter.state) query.where('i.state', filter.state);
  if (filter.iids) query.whereIn('i.iid', orNothing(filter.iids));
  if (filter.authorIds) query.whereIn('i.author_id', orNothing(filter.authorIds));
  if (filter.assignee === 'none') query.whereNotExists(knex('issue_assignees as a').select(knex.raw('1')).whereRaw('a.issue_id = i.id'));
  else if (filter.assignee === 'any') query.whereExists(knex('issue_assignees as a').select(knex.raw('1')).whereRaw('a.issue_id = i.id'));
  else if (filter.assignee) for (const userId of filter.assignee) query.whereExists(assigned(userId));
  if (filter.labels === 'none') query.whereNotExists(labelled());
  else if (filter.labels === 'any') query.whereExists(labelled());
  else if (filter.labels) for (const ids of filter.labels) query.whereExists(labelled(ids));
  applyNullable(query, 'i.milestone_id', filter.milestone);
  applyNullable(query, 'i.iteration_id', filter.iteration);
  if (filter.search) {
    const { text } = filter.search;
    const columns = filter.search.in.length > 0 ? filter.search.in : (['title', 'description'] as const);
    query.where((q) => {
      for (const column of columns) q.orWhere(containsText(knex, `i.${column}`, text));
    });
  }
  if (filter.createdAfter) query.where('i.created_at', '>=', filter.createdAfter);
  if (filter.createdBefore) query.where('i.created_at', '<=', filter.createdBefore);
  if (filter.updatedAfter) query.where('i.updated_at', '>=', filter.updatedAfter);
  if (filter.updatedBefore) query.where('i.updated_at', '<=', filter.updatedBefore);
  if (filter.confidential !== undefined) query.where('i.confidential', filter.confidential);
  const due = filter.dueDate;
  if (due === 'none') query.whereNull('i.due_date');
  else if (due === 'any') query.whereNotNull('i.due_date');
  else if (due) {
    if (due.from) query.where('i.due_date', '>=', due.from);
    if (due.to) query.where('i.due_date', '<=', due.to);
  }

  const not = filter.not;
  if (not?.iids) query.whereNotIn('i.iid', [...not.iids]);
  if (not?.authorIds) query.whereNotIn('i.author_id', [...not.authorIds]);
  if (not?.assigneeIds) for (const userId of not.assigneeIds) query.whereNotExists(assigned(userId));
  if (not?.labels) for (const ids of not.labels) query.whereNotExists(labelled(ids));
  if (not?.milestoneIds) query.where((q) => q.whereNull('i.milestone_id').orWhereNotIn('i.milestone_id', orNothing(not.milestoneIds ?? [])));
  if (not?.iterationIds) query.where((q) => q.whereNull('i.iteration_id').orWhereNotIn('i.iteration_id', orNothing(not.iterationIds ?? [])));
  return query;
}

function applyNullable(query: Knex.QueryBuilder, column: string, value: Wildcard | readonly number[] | undefined) {
  if (value === 'none') query.whereNull(column);
  else if (value === 'any') query.whereNotNull(column);
  else if (value) query.whereIn(column, orNothing(value));
}
