/**
 * GitLab's merge request list orders (Issuable.sort_by_attribute), as ORDER BY terms over
 * `merge_requests as m`. Milestone due dates, label priorities and award emoji live in other
 * plugins: the orders that need them ask those plugins' contracts for the values the matching
 * merge requests use, and carry them into the statement as CASE terms.
 */
import { type Query, ref, sql } from '@forgekit/kernel/orm';
import type { LabelsService } from '@forgekit/plugin-labels/contracts';
import type { MilestonesService } from '@forgekit/plugin-milestones/contracts';
import type { NotesService } from '@forgekit/plugin-notes/contracts';
import { MergeRequestLabelEntity } from '../entities/merge-request-label.js';
import type { MergeRequestFilter, MergeRequestScope } from './mr-filter.js';
import type { MergeRequestStore } from './mr-store.js';

/** The list query: merge requests as `m`. */
export type MergeRequestQuery = Query<MergeRequestScope, 'm'>;

export interface ListOrder {
  /** Adds the leading order terms to the list query; ties are broken by `m.id` in `direction`. */
  terms(query: MergeRequestQuery): void;
  direction: 'asc' | 'desc';
  /** Names an order whose terms carry no values, so a statement built with it may be kept. */
  key?: string;
}

export interface OrderDeps {
  store: Pick<MergeRequestStore, 'milestoneIdsOf' | 'projectLabelsOf' | 'idsOf'>;
  milestones: Pick<MilestonesService, 'byIds'>;
  labels: Pick<LabelsService, 'priorities'>;
  notes: Pick<NotesService, 'awardVotes'>;
}

type Sql = ReturnType<typeof sql>;
type Term = (query: MergeRequestQuery) => Sql;

/**
 * A value no merge request has: typed, since PostgreSQL refuses a bare constant in ORDER BY
 * ("non-integer constant in ORDER BY").
 */
const NULL_TERM: Term = () => sql`cast(null as integer)`;
const joined = (pieces: readonly Sql[]) => pieces.reduce((all, piece) => sql`${all} ${piece}`);
const sorted = (term: Sql, sort: 'asc' | 'desc') => (sort === 'asc' ? sql`${term} asc` : sql`${term} desc`);
/** `term dir` with nulls last on both engines. */
const nullsLast = (term: Sql, sort: 'asc' | 'desc') => sql`case when ${term} is null then 1 else 0 end, ${sorted(term, sort)}`;

const byColumn = (column: 'm.createdAt' | 'm.updatedAt' | 'm.title', sort: 'asc' | 'desc'): ListOrder => ({
  terms: (query) => query.orderBy(column, sort),
  direction: sort,
  key: `${column} ${sort}`,
});

export function createMergeRequestOrderer(deps: OrderDeps) {
  /** The due date of each matching merge request's milestone (null without a milestone or a due date). */
  async function milestoneDue(filter: MergeRequestFilter): Promise<Term> {
    const ids = await deps.store.milestoneIdsOf(filter);
    const due = ids.length === 0 ? [] : (await deps.milestones.byIds(ids)).filter((milestone) => milestone.dueDate !== null);
    if (due.length === 0) return NULL_TERM;
    const whens = joined(due.map((milestone) => sql`when ${milestone.id} then cast(${milestone.dueDate ?? ''} as varchar(10))`));
    return () => sql`(case ${ref('m.milestoneId')} ${whens} else null end)`;
  }

  /** The highest (lowest-numbered) priority, in the merge request's project, of its labels other than `excluded`. */
  async function labelPriority(filter: MergeRequestFilter, excluded: ReadonlySet<number>): Promise<Term> {
    const perProject = new Map<number, number[]>();
    for (const { projectId, labelId } of await deps.store.projectLabelsOf(filter)) {
      if (excluded.has(labelId)) continue;
      perProject.set(projectId, [...(perProject.get(projectId) ?? []), labelId]);
    }
    const found = await Promise.all(
      [...perProject].map(async ([projectId, labelIds]) =>
        [...(await deps.labels.priorities(projectId, labelIds))].map(([labelId, priority]) => [projectId, labelId, priority] as const),
      ),
    );
    const ranked = found.flat();
    if (ranked.length === 0) return NULL_TERM;
    const whens = joined(
      ranked.map(
        ([projectId, labelId, priority]) =>
          sql`when ${ref('m.projectId')} = ${projectId} and ${ref('l.labelId')} = ${labelId} then cast(${priority} as integer)`,
      ),
    );
    return (query) =>
      query.subquery(MergeRequestLabelEntity, 'l', (l) => l.selectSql('priority', sql`min(case ${whens} end)`).whereColumn('l.mergeRequestId', 'm.id'));
  }

  /** `upvotes` (thumbsup awards) of each matching merge request, 0 for those without. */
  async function upvotes(filter: MergeRequestFilter): Promise<Term> {
    const ids = await deps.store.idsOf(filter);
    const votes = ids.length === 0 ? new Map() : await deps.notes.awardVotes('MergeRequest', ids);
    const voted = [...votes].filter(([, { upvotes }]) => upvotes > 0);
    if (voted.length === 0) return () => sql`cast(0 as integer)`;
    const whens = joined(voted.map(([id, { upvotes }]) => sql`when ${id} then cast(${upvotes} as integer)`));
    return () => sql`(case ${ref('m.id')} ${whens} else 0 end)`;
  }

  const excludedOf = (filter: MergeRequestFilter) => new Set(Array.isArray(filter.labels) ? filter.labels.flat() : []);

  return async function orderFor(orderBy: string, sort: 'asc' | 'desc', filter: MergeRequestFilter): Promise<ListOrder> {
    switch (orderBy) {
      case 'updated_at':
        return byColumn('m.updatedAt', sort);
      case 'title':
        return byColumn('m.title', sort);
      case 'merged_at':
        return { terms: (query) => query.orderBy('m.mergedAt', sort, { nulls: 'last' }), direction: sort, key: `m.mergedAt ${sort}` };
      case 'popularity': {
        // GitLab's order_upvotes_desc / _asc: by upvotes, then id descending.
        const votes = await upvotes(filter);
        return { terms: (query) => query.orderBySql(sorted(votes(query), sort)), direction: 'desc' };
      }
      case 'milestone_due': {
        // Those whose milestone has a due date, then those whose milestone has none, then those without a milestone.
        const due = await milestoneDue(filter);
        return {
          terms: (query) =>
            query.orderBySql(sql`case when ${ref('m.milestoneId')} is null then 2 when ${due(query)} is null then 1 else 0 end, ${sorted(due(query), sort)}`),
          direction: 'desc',
        };
      }
      case 'label_priority': {
        const priority = await labelPriority(filter, excludedOf(filter));
        return { terms: (query) => query.orderBySql(nullsLast(priority(query), sort)), direction: 'desc' };
      }
      case 'priority': {
        const [due, priority] = await Promise.all([milestoneDue(filter), labelPriority(filter, excludedOf(filter))]);
        return { terms: (query) => query.orderBySql(nullsLast(due(query), sort)).orderBySql(nullsLast(priority(query), sort)), direction: 'desc' };
      }
      default:
        return byColumn('m.createdAt', sort);
    }
  };
}

export type MergeRequestOrderer = ReturnType<typeof createMergeRequestOrderer>;
