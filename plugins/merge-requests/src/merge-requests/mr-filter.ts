/** The merge request list filters (GitLab's MergeRequestsFinder) as conditions over `merge_requests as m`. */
import type { Conditions, IdQuery, Query } from '@forgekit/kernel/orm';
import type { MergeRequestState } from '../contracts.js';
import type { MergeRequestEntity } from '../entities/merge-request.js';
import { MergeRequestLabelEntity } from '../entities/merge-request-label.js';
import { MergeRequestUserEntity, type MergeRequestUserRole } from '../entities/merge-request-user.js';

export type Wildcard = 'none' | 'any';

/** Negated filters (`not[...]`): a merge request matching any of them is left out. */
export interface NegatedFilter {
  authorIds?: readonly number[];
  assigneeIds?: readonly number[];
  reviewerIds?: readonly number[];
  labels?: readonly (readonly number[])[];
  milestoneIds?: readonly number[];
}

export interface MergeRequestFilter {
  /** Projects in scope, as ids or a query of ids; `every` for a caller who sees every project (an admin at instance scope). */
  projectIds: readonly number[] | IdQuery | 'every';
  state?: MergeRequestState;
  iids?: readonly number[];
  authorIds?: readonly number[];
  assignee?: Wildcard | readonly number[];
  reviewer?: Wildcard | readonly number[];
  mergedByIds?: readonly number[];
  /** Wildcard, or label ids per title: a merge request needs a label of each title. */
  labels?: Wildcard | readonly (readonly number[])[];
  milestone?: Wildcard | readonly number[];
  sourceBranch?: string;
  targetBranch?: string;
  draft?: boolean;
  search?: { text: string; in: readonly ('title' | 'description')[] };
  createdAfter?: Date;
  createdBefore?: Date;
  updatedAfter?: Date;
  updatedBefore?: Date;
  /** A filter that can match nothing (deployments, reactions that do not exist here). */
  nothing?: boolean;
  not?: NegatedFilter;
}

const NOTHING = [-1];
const orNothing = (ids: readonly number[]) => (ids.length > 0 ? [...ids] : NOTHING);

export type MergeRequestScope = { m: typeof MergeRequestEntity };
type OverMergeRequests = Conditions<MergeRequestScope, 'm'>;
type Users = Query<MergeRequestScope & { u: typeof MergeRequestUserEntity }, 'u'>;
type Labels = Query<MergeRequestScope & { l: typeof MergeRequestLabelEntity }, 'l'>;

const anyUser = (role: MergeRequestUserRole) => (u: Users) => u.whereColumn('u.mergeRequestId', 'm.id').where('u.role', role);
const withUser = (role: MergeRequestUserRole, userId: number) => (u: Users) => anyUser(role)(u).where('u.userId', userId);
const labelled = (labelIds?: readonly number[]) => (l: Labels) => {
  l.whereColumn('l.mergeRequestId', 'm.id');
  if (labelIds) l.whereIn('l.labelId', orNothing(labelIds));
};

function applyUsers(q: OverMergeRequests, role: MergeRequestUserRole, value: Wildcard | readonly number[] | undefined) {
  if (value === 'none') q.whereNotExists(MergeRequestUserEntity, 'u', anyUser(role));
  else if (value === 'any') q.whereExists(MergeRequestUserEntity, 'u', anyUser(role));
  else if (value) for (const userId of value) q.whereExists(MergeRequestUserEntity, 'u', withUser(role, userId));
}

/** Narrows `query`, any query that names the merge request as `m`, to the merge requests `filter` keeps. */
export function applyMergeRequestFilter<Q extends Query<any, any, any>>(query: Q, filter: MergeRequestFilter): Q {
  const q = query as unknown as OverMergeRequests;
  if (filter.nothing) q.whereIn('m.projectId', NOTHING);
  else if (filter.projectIds !== 'every')
    q.whereIn('m.projectId', Array.isArray(filter.projectIds) ? orNothing(filter.projectIds as readonly number[]) : filter.projectIds);
  if (filter.state) q.where('m.state', filter.state);
  if (filter.iids) q.whereIn('m.iid', orNothing(filter.iids));
  if (filter.authorIds) q.whereIn('m.authorId', orNothing(filter.authorIds));
  if (filter.mergedByIds) q.whereIn('m.mergedById', orNothing(filter.mergedByIds));
  applyUsers(q, 'assignee', filter.assignee);
  applyUsers(q, 'reviewer', filter.reviewer);
  if (filter.labels === 'none') q.whereNotExists(MergeRequestLabelEntity, 'l', labelled());
  else if (filter.labels === 'any') q.whereExists(MergeRequestLabelEntity, 'l', labelled());
  else if (filter.labels) for (const ids of filter.labels) q.whereExists(MergeRequestLabelEntity, 'l', labelled(ids));
  if (filter.milestone === 'none') q.whereNull('m.milestoneId');
  else if (filter.milestone === 'any') q.whereNotNull('m.milestoneId');
  else if (filter.milestone) q.whereIn('m.milestoneId', orNothing(filter.milestone));
  if (filter.sourceBranch !== undefined) q.where('m.sourceBranch', filter.sourceBranch);
  if (filter.targetBranch !== undefined) q.where('m.targetBranch', filter.targetBranch);
  if (filter.draft !== undefined) q.where('m.draft', filter.draft);
  if (filter.search) {
    const columns = filter.search.in.length > 0 ? filter.search.in : (['title', 'description'] as const);
    q.whereContains(
      columns.map((column) => `m.${column}` as const),
      filter.search.text,
    );
  }
  if (filter.createdAfter) q.where('m.createdAt', '>=', filter.createdAfter);
  if (filter.createdBefore) q.where('m.createdAt', '<=', filter.createdBefore);
  if (filter.updatedAfter) q.where('m.updatedAt', '>=', filter.updatedAfter);
  if (filter.updatedBefore) q.where('m.updatedAt', '<=', filter.updatedBefore);

  const not = filter.not;
  if (not?.authorIds) q.whereNotIn('m.authorId', not.authorIds);
  if (not?.assigneeIds) for (const userId of not.assigneeIds) q.whereNotExists(MergeRequestUserEntity, 'u', withUser('assignee', userId));
  if (not?.reviewerIds) for (const userId of not.reviewerIds) q.whereNotExists(MergeRequestUserEntity, 'u', withUser('reviewer', userId));
  if (not?.labels) for (const ids of not.labels) q.whereNotExists(MergeRequestLabelEntity, 'l', labelled(ids));
  if (not?.milestoneIds) q.where((w) => w.whereNull('m.milestoneId').orWhereNotIn('m.milestoneId', orNothing(not.milestoneIds ?? [])));
  return query;
}
