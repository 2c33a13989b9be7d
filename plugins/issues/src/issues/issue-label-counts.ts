/** Opened and closed issues per label, for labels' `with_counts`: one grouped statement, compiled once per shape. */
import type { Database } from '@forgekit/kernel';
import { readsByShape, type PreparedRead } from '@forgekit/kernel/orm';
import type { VisibleProjectsShape } from '@forgekit/plugin-core/contracts';
import { IssueEntity } from '../entities/issue.js';
import { IssueLabelEntity } from '../entities/issue-label.js';
import { applyIssueFilter, type ConfidentialVisibility, type IssueFilter } from './issue-filter.js';

/** The issues counted: those of some projects, or of a group's projects the caller may see, with the confidential ones the caller sees. */
export type CountedIssues = ({ projectIds: readonly number[] } | { projects: VisibleProjectsShape }) & { confidential: ConfidentialVisibility };

/** Count statements kept, one per shape; past this many they are compiled afresh. */
const SHAPES = 100;

type CountRow = { labelId: number; state: string; count: number };

export function createIssueLabelCounts(database: Database) {
  const reads = readsByShape<PreparedRead<CountRow, string>>(SHAPES);

  /**
   * The statement of a shape: the label ids, the project ids (or the visible projects'
   * values) and the confidential projects and user are parameters. A filter's generic
   * parameters (`filterParams`) would do, at a cost per request this small filter need not pay.
   */
  function readOf(counted: CountedIssues) {
    const projects = 'projects' in counted ? counted.projects : undefined;
    const { confidential } = counted;
    const confidentialKey = confidential.all ? 'all' : confidential.userId === null ? 'anonymous' : 'user';
    const key = `${projects ? projects.key : 'ids'}|${confidentialKey}`;
    const read = reads(
      key,
      () =>
        database.prepareValues(
          (p) => {
            const filter: IssueFilter = {
              projectIds: projects ? projects.query(p) : p.projectIds,
              confidentialVisibility: confidential.all
                ? { all: true }
                : { all: false, projectIds: p.confidentialProjectIds, userId: confidential.userId === null ? null : p.confidentialUserId },
            };
            return applyIssueFilter(
              database
                .table(IssueLabelEntity, 'link')
                .join(IssueEntity, 'i', 'i.id', 'link.issueId')
                .select({ labelId: 'link.labelId', state: 'i.state' })
                .count({ count: '*' })
                .whereIn('link.labelId', p.countedLabelIds)
                .groupBy('link.labelId', 'i.state'),
              filter,
            );
          },
          { labelId: 'number', state: 'string', count: 'number' },
        ) as PreparedRead<CountRow, string>,
    );
    const values: Record<string, unknown> = projects ? { ...projects.values } : { projectIds: [...(counted as { projectIds: readonly number[] }).projectIds] };
    if (!confidential.all) {
      values.confidentialProjectIds = [...confidential.projectIds];
      values.confidentialUserId = confidential.userId;
    }
    return { read, values };
  }

  return async function countsPerLabel(labelIds: readonly number[], counted: CountedIssues): Promise<Map<number, { opened: number; closed: number }>> {
    const counts = new Map<number, { opened: number; closed: number }>();
    if (labelIds.length === 0) return counts;
    const { read, values } = readOf(counted);
    values.countedLabelIds = [...labelIds];
    for (const row of await read.all(values)) {
      let entry = counts.get(row.labelId);
      if (!entry) counts.set(row.labelId, (entry = { opened: 0, closed: 0 }));
      if (row.state === 'opened' || row.state === 'closed') entry[row.state] += row.count;
    }
    return counts;
  };
}
