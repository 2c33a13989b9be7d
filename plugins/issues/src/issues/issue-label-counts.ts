/** Opened and closed issues per label, for labels' `with_counts`: one grouped statement, compiled once per filter shape. */
import type { Database } from '@forgekit/kernel';
import type { VisibleProjectsShape } from '@forgekit/plugin-core/contracts';
import { IssueEntity } from '../entities/issue.js';
import { IssueLabelEntity } from '../entities/issue-label.js';
import { applyIssueFilter, type IssueFilter } from './issue-filter.js';
import { filterParams, type PreparedRead } from '@forgekit/kernel/orm';

/** The issues counted: `filter`'s, within `projects` (a group's visible projects) in place of `filter.projectIds` when set. */
export interface CountedIssues {
  filter: IssueFilter;
  projects?: VisibleProjectsShape;
}

/** Count statements kept, one per shape; past this many they are compiled afresh. */
const SHAPES = 100;

type CountRow = { labelId: number; state: string; count: number };

export function createIssueLabelCounts(database: Database) {
  const query = (labelIds: readonly number[], filter: IssueFilter) =>
    applyIssueFilter(
      database
        .table(IssueLabelEntity, 'link')
        .join(IssueEntity, 'i', 'i.id', 'link.issueId')
        .select({ labelId: 'link.labelId', state: 'i.state' })
        .count({ count: '*' })
        .whereIn('link.labelId', labelIds)
        .groupBy('link.labelId', 'i.state'),
      filter,
    );
  const prepare = (build: (p: Record<string, never>) => IssueFilter) =>
    database.prepareValues((p) => query(p.countedLabelIds, build(p)), { labelId: 'number', state: 'string', count: 'number' }) as PreparedRead<
      CountRow,
      string
    >;
  const reads = new Map<string, PreparedRead<CountRow, string>>();

  /** The rows of the count: the filter's values and the projects' are parameters, so its SQL is built once per shape. */
  function rowsOf(labelIds: readonly number[], { filter, projects }: CountedIssues): Promise<CountRow[]> {
    // With `projects`, the filter's own project ids are left out of its parameters.
    const rest = projects ? ({ ...filter, projectIds: undefined } as unknown as IssueFilter) : filter;
    const params = filterParams(rest);
    const values = { ...params?.values, ...projects?.values, countedLabelIds: [...labelIds] };
    const withProjects = (p: Record<string, never>, base: IssueFilter): IssueFilter => (projects ? { ...base, projectIds: projects.query(p) } : base);
    // A filter whose values shape the statement (none that counts build today) is compiled for this read only.
    if (!params) return prepare((p) => withProjects(p, filter)).all(values);
    const key = `${params.key}|${projects?.key ?? ''}`;
    let read = reads.get(key);
    if (!read) {
      read = prepare((p) => withProjects(p, params.standIn(p)));
      if (reads.size >= SHAPES) reads.clear();
      reads.set(key, read);
    }
    return read.all(values);
  }

  return async function countsPerLabel(labelIds: readonly number[], counted: CountedIssues): Promise<Map<number, { opened: number; closed: number }>> {
    const counts = new Map<number, { opened: number; closed: number }>();
    if (labelIds.length === 0) return counts;
    for (const row of await rowsOf(labelIds, counted)) {
      let entry = counts.get(row.labelId);
      if (!entry) counts.set(row.labelId, (entry = { opened: 0, closed: 0 }));
      if (row.state === 'opened' || row.state === 'closed') entry[row.state] += row.count;
    }
    return counts;
  };
}
