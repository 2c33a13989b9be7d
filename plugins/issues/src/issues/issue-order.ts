/**
 * GitLab's issue list orders (Issuable.sort_by_attribute and Issue's own), as ORDER BY terms over `issues as i`.
 * Milestone due dates and label priorities live in other plugins: the orders that need them ask those
 * plugins' contracts for the values the matching issues use, and carry them into the statement as CASE terms.
 */
import { NULL_TERM, nullsLastTerm, type Query, ref, sortedTerm, sql, sqlJoined } from '@forgekit/kernel/orm';
import type { LabelsService } from '@forgekit/plugin-labels/contracts';
import type { MilestonesService } from '@forgekit/plugin-milestones/contracts';
import { IssueLabelEntity } from '../entities/issue-label.js';
import type { IssueFilter, IssueScope } from './issue-filter.js';
import type { IssueStore } from './issue-store.js';

/** The list query: issues as `i`. */
export type IssueQuery = Query<IssueScope, 'i'>;

export interface IssueOrder {
  /** Adds the leading order terms to the list query; GitLab breaks ties with `i.id` in `direction`. */
  terms(query: IssueQuery): void;
  direction: 'asc' | 'desc';
  /** Names the terms, for an order whose terms are the same for every list (their page statement is built once); none for the others. */
  key?: string;
}

export interface OrderDeps {
  store: Pick<IssueStore, 'milestoneIdsOf' | 'projectLabelsOf'>;
  milestones: Pick<MilestonesService, 'byIds'>;
  labels: Pick<LabelsService, 'prioritiesIn'>;
}

type Sql = ReturnType<typeof sql>;
/** A value per issue to order by, in the list query. */
type Term = (query: IssueQuery) => Sql;

/** Nothing but GitLab's tie-break, `i.id` in `direction`. */
export const idOrder = (direction: 'asc' | 'desc'): IssueOrder => ({ terms: () => {}, direction, key: `id ${direction}` });

const byColumn = (column: 'i.createdAt' | 'i.updatedAt' | 'i.title', sort: 'asc' | 'desc'): IssueOrder => ({
  terms: (query) => query.orderBy(column, sort),
  direction: 'desc',
  key: `${column} ${sort}`,
});

/** Orders that need nothing besides the issue row. */
export function plainOrder(orderBy: string, sort: 'asc' | 'desc'): IssueOrder | null {
  switch (orderBy) {
    case 'created_at':
      return byColumn('i.createdAt', sort);
    case 'updated_at':
      return byColumn('i.updatedAt', sort);
    case 'title':
      return byColumn('i.title', sort);
    case 'due_date':
      return { terms: (query) => query.orderBy('i.dueDate', sort, { nulls: 'last' }), direction: 'desc' };
    // No issue has a relative position here (GitLab sorts those without one last, then by id),
    // and there are no award emoji, so every issue has 0 upvotes: both come down to GitLab's tie-break.
    case 'relative_position':
    case 'popularity':
      return idOrder('desc');
    default:
      return null;
  }
}

export function createIssueOrderer(deps: OrderDeps) {
  /** The due date of each matching issue's milestone (null without a milestone or a due date). */
  async function milestoneDue(filter: IssueFilter): Promise<Term> {
    const ids = await deps.store.milestoneIdsOf(filter);
    const due = ids.length === 0 ? [] : (await deps.milestones.byIds(ids)).filter((milestone) => milestone.dueDate !== null);
    if (due.length === 0) return () => NULL_TERM;
    const whens = sqlJoined(due.map((milestone) => sql`when ${milestone.id} then cast(${milestone.dueDate ?? ''} as varchar(10))`));
    return () => sql`(case ${ref('i.milestoneId')} ${whens} end)`;
  }

  /** The highest (lowest-numbered) priority, in the issue's project, of its labels other than `excluded`. */
  async function labelPriority(filter: IssueFilter, excluded: ReadonlySet<number>): Promise<Term> {
    const used = (await deps.store.projectLabelsOf(filter)).filter(({ labelId }) => !excluded.has(labelId));
    const ranked = await deps.labels.prioritiesIn(used);
    if (ranked.length === 0) return () => NULL_TERM;
    const whens = sqlJoined(
      ranked.map(
        ({ projectId, labelId, priority }) =>
          sql`when ${ref('i.projectId')} = ${projectId} and ${ref('l.labelId')} = ${labelId} then cast(${priority} as integer)`,
      ),
    );
    return (query) => query.subquery(IssueLabelEntity, 'l', (l) => l.selectSql('priority', sql`min(case ${whens} end)`).whereColumn('l.issueId', 'i.id'));
  }

  const excludedOf = (filter: IssueFilter) => new Set(Array.isArray(filter.labels) ? filter.labels.flat() : []);

  return async function orderFor(orderBy: string, sort: 'asc' | 'desc', filter: IssueFilter): Promise<IssueOrder> {
    const plain = plainOrder(orderBy, sort);
    if (plain) return plain;
    if (orderBy === 'milestone_due') {
      // Issues whose milestone has a due date, then those whose milestone has none, then those without a milestone.
      const due = await milestoneDue(filter);
      return {
        terms: (query) =>
          query.orderBySql(sql`case when ${ref('i.milestoneId')} is null then 2 when ${due(query)} is null then 1 else 0 end, ${sortedTerm(due(query), sort)}`),
        direction: 'desc',
      };
    }
    if (orderBy === 'label_priority') {
      const priority = await labelPriority(filter, excludedOf(filter));
      return { terms: (query) => query.orderBySql(nullsLastTerm(priority(query), sort)), direction: 'desc' };
    }
    if (orderBy === 'priority') {
      const [due, priority] = await Promise.all([milestoneDue(filter), labelPriority(filter, excludedOf(filter))]);
      return { terms: (query) => query.orderBySql(nullsLastTerm(due(query), sort)).orderBySql(nullsLastTerm(priority(query), sort)), direction: 'desc' };
    }
    return plainOrder('created_at', sort)!;
  };
}

export type IssueOrderer = ReturnType<typeof createIssueOrderer>;
