/**
 * GitLab's issue list orders (Issuable.sort_by_attribute and Issue's own), as ORDER BY terms over `issues as i`.
 * Milestone due dates and label priorities live in other plugins: the orders that need them ask those
 * plugins' contracts for the values the matching issues use, and carry them into the statement as CASE terms.
 */
import type { LabelsService } from '@forgekit/plugin-labels/contracts';
import type { MilestonesService } from '@forgekit/plugin-milestones/contracts';
import type { IssueFilter } from './issue-filter.js';
import type { IssueStore } from './issue-store.js';

export interface IssueOrder {
  /** The leading order terms (raw SQL over `i`, with `?` bindings); GitLab breaks ties with `i.id` descending. */
  sql: string;
  bindings?: readonly (string | number)[];
  direction: 'asc' | 'desc';
}

export interface OrderDeps {
  store: Pick<IssueStore, 'milestoneIdsOf' | 'projectLabelsOf'>;
  milestones: Pick<MilestonesService, 'byIds'>;
  labels: Pick<LabelsService, 'priorities'>;
}

interface Term {
  sql: string;
  bindings: (string | number)[];
}

const NULL_TERM: Term = { sql: 'null', bindings: [] };

/** `term dir` with nulls last on both engines. */
const nullsLast = (term: Term, sort: 'asc' | 'desc'): Term => ({
  sql: `case when ${term.sql} is null then 1 else 0 end, ${term.sql} ${sort}`,
  bindings: [...term.bindings, ...term.bindings],
});

/** Orders that need nothing besides the issue row. */
export function plainOrder(orderBy: string, sort: 'asc' | 'desc'): IssueOrder | null {
  switch (orderBy) {
    case 'created_at':
      return { sql: `i.created_at ${sort}`, direction: 'desc' };
    case 'updated_at':
      return { sql: `i.updated_at ${sort}`, direction: 'desc' };
    case 'title':
      return { sql: `i.title ${sort}`, direction: 'desc' };
    case 'due_date':
      return { sql: nullsLast({ sql: 'i.due_date', bindings: [] }, sort).sql, direction: 'desc' };
    // No issue has a relative position here (GitLab sorts those without one last, then by id),
    // and there are no award emoji, so every issue has 0 upvotes: both come down to GitLab's tie-break.
    case 'relative_position':
    case 'popularity':
      return { sql: '', direction: 'desc' };
    default:
      return null;
  }
}

export function createIssueOrderer(deps: OrderDeps) {
  /** The due date of each matching issue's milestone (null without a milestone or a due date). */
  async function milestoneDue(filter: IssueFilter): Promise<Term> {
    const ids = await deps.store.milestoneIdsOf(filter);
    const due = ids.length === 0 ? [] : (await deps.milestones.byIds(ids)).filter((milestone) => milestone.dueDate !== null);
    if (due.length === 0) return NULL_TERM;
    return {
      sql: `(case i.milestone_id ${due.map(() => 'when ? then cast(? as varchar(10))').join(' ')} end)`,
      bindings: due.flatMap((milestone) => [milestone.id, milestone.dueDate ?? '']),
    };
  }

  /** The highest (lowest-numbered) priority, in the issue's project, of its labels other than `excluded`. */
  async function labelPriority(filter: IssueFilter, excluded: ReadonlySet<number>): Promise<Term> {
    const perProject = new Map<number, number[]>();
    for (const { projectId, labelId } of await deps.store.projectLabelsOf(filter)) {
      if (excluded.has(labelId)) continue;
      perProject.set(projectId, [...(perProject.get(projectId) ?? []), labelId]);
    }
    const found = await Promise.all(
      [...perProject].map(async ([projectId, labelIds]) =>
        [...(await deps.labels.priorities(projectId, labelIds))].map(([labelId, priority]) => [projectId, labelId, priority]),
      ),
    );
    const ranked = found.flat();
    if (ranked.length === 0) return NULL_TERM;
    return {
      sql: `(select min(case ${ranked.map(() => 'when i.project_id = ? and l.label_id = ? then cast(? as integer)').join(' ')} end) from issue_labels l where l.issue_id = i.id)`,
      bindings: ranked.flat(),
    };
  }

  const excludedOf = (filter: IssueFilter) => new Set(Array.isArray(filter.labels) ? filter.labels.flat() : []);

  return async function orderFor(orderBy: string, sort: 'asc' | 'desc', filter: IssueFilter): Promise<IssueOrder> {
    const plain = plainOrder(orderBy, sort);
    if (plain) return plain;
    if (orderBy === 'milestone_due') {
      // Issues whose milestone has a due date, then those whose milestone has none, then those without a milestone.
      const due = await milestoneDue(filter);
      return {
        sql: `case when i.milestone_id is null then 2 when ${due.sql} is null then 1 else 0 end, ${due.sql} ${sort}`,
        bindings: [...due.bindings, ...due.bindings],
        direction: 'desc',
      };
    }
    if (orderBy === 'label_priority') {
      const term = nullsLast(await labelPriority(filter, excludedOf(filter)), sort);
      return { sql: term.sql, bindings: term.bindings, direction: 'desc' };
    }
    if (orderBy === 'priority') {
      const [due, priority] = await Promise.all([milestoneDue(filter), labelPriority(filter, excludedOf(filter))]);
      const first = nullsLast(due, sort);
      const second = nullsLast(priority, sort);
      return { sql: `${first.sql}, ${second.sql}`, bindings: [...first.bindings, ...second.bindings], direction: 'desc' };
    }
    return plainOrder('created_at', sort)!;
  };
}

export type IssueOrderer = ReturnType<typeof createIssueOrderer>;
