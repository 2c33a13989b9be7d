/**
 * GitLab's merge request list orders (Issuable.sort_by_attribute), as ORDER BY terms over
 * `merge_requests as m`. Milestone due dates, label priorities and award emoji live in other
 * plugins: the orders that need them ask those plugins' contracts for the values the matching
 * merge requests use, and carry them into the statement as CASE terms.
 */
import { NULL_TERM, nullsLastTerm, type Query, ref, sortedTerm, sql, sqlJoined } from '@forgekit/kernel/orm';
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
  labels: Pick<LabelsService, 'prioritiesIn'>;
  notes: Pick<NotesService, 'awardVotes'>;
}

type Sql = ReturnType<typeof sql>;
type Term = (query: MergeRequestQuery) => Sql;

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
    if (due.length === 0) return () => NULL_TERM;
    const whens = sqlJoined(due.map((milestone) => sql`when ${milestone.id} then cast(${milestone.dueDate ?? ''} as varchar(10))`));
    return () => sql`(case ${ref('m.milestoneId')} ${whens} else null end)`;
  }

  /** The highest (lowest-numbered) priority, in the merge request's project, of its labels other than `excluded`. */
  async function labelPriority(filter: MergeRequestFilter, excluded: ReadonlySet<number>): Promise<Term> {
    const used = (await deps.store.projectLabelsOf(filter)).filter(({ labelId }) => !excluded.has(labelId));
    const ranked = await deps.labels.prioritiesIn(used);
    if (ranked.length === 0) return () => NULL_TERM;
    const whens = sqlJoined(
      ranked.map(
        ({ projectId, labelId, priority }) =>
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
    const whens = sqlJoined(voted.map(([id, { upvotes }]) => sql`when ${id} then cast(${upvotes} as integer)`));
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
        return { terms: (query) => query.orderBySql(sortedTerm(votes(query), sort)), direction: 'desc' };
      }
      case 'milestone_due': {
        // Those whose milestone has a due date, then those whose milestone has none, then those without a milestone.
        const due = await milestoneDue(filter);
        return {
          terms: (query) =>
            query.orderBySql(
              sql`case when ${ref('m.milestoneId')} is null then 2 when ${due(query)} is null then 1 else 0 end, ${sortedTerm(due(query), sort)}`,
            ),
          direction: 'desc',
        };
      }
      case 'label_priority': {
        const priority = await labelPriority(filter, excludedOf(filter));
        return { terms: (query) => query.orderBySql(nullsLastTerm(priority(query), sort)), direction: 'desc' };
      }
      case 'priority': {
        const [due, priority] = await Promise.all([milestoneDue(filter), labelPriority(filter, excludedOf(filter))]);
        return { terms: (query) => query.orderBySql(nullsLastTerm(due(query), sort)).orderBySql(nullsLastTerm(priority(query), sort)), direction: 'desc' };
      }
      default:
        return byColumn('m.createdAt', sort);
    }
  };
}

export type MergeRequestOrderer = ReturnType<typeof createMergeRequestOrderer>;
