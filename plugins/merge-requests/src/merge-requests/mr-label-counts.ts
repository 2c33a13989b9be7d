/** Opened and closed (or merged) merge requests per label, for labels' `with_counts`: one grouped statement, compiled once per shape. */
import type { Database } from '@forgekit/kernel';
import { readsByShape, type PreparedRead } from '@forgekit/kernel/orm';
import type { VisibleProjectsShape } from '@forgekit/plugin-core/contracts';
import { MergeRequestEntity } from '../entities/merge-request.js';
import { MergeRequestLabelEntity } from '../entities/merge-request-label.js';
import { applyMergeRequestFilter } from './mr-filter.js';

/** The merge requests counted: those of some projects, or of a group's projects the caller may see. */
export type CountedMergeRequests = { projectIds: readonly number[] } | { projects: VisibleProjectsShape };

/** Count statements kept, one per shape; past this many they are compiled afresh. */
const SHAPES = 100;

type CountRow = { labelId: number; state: string; count: number };

export function createMergeRequestLabelCounts(database: Database) {
  const reads = readsByShape<PreparedRead<CountRow, string>>(SHAPES);

  /** The statement of a shape, built with the label ids, the project ids or the visible projects' values as parameters. */
  function readOf(counted: CountedMergeRequests) {
    const projects = 'projects' in counted ? counted.projects : undefined;
    const key = projects ? `group|${projects.key}` : 'ids';
    const read = reads(
      key,
      () =>
        database.prepareValues(
          (p) =>
            applyMergeRequestFilter(
              database
                .table(MergeRequestLabelEntity, 'link')
                .join(MergeRequestEntity, 'm', 'm.id', 'link.mergeRequestId')
                .select({ labelId: 'link.labelId', state: 'm.state' })
                .count({ count: '*' })
                .whereIn('link.labelId', p.countedLabelIds)
                .groupBy('link.labelId', 'm.state'),
              { projectIds: projects ? projects.query(p) : p.projectIds },
            ),
          { labelId: 'number', state: 'string', count: 'number' },
        ) as PreparedRead<CountRow, string>,
    );
    return { read, values: projects ? projects.values : { projectIds: [...(counted as { projectIds: readonly number[] }).projectIds] } };
  }

  return async function countsPerLabel(labelIds: readonly number[], counted: CountedMergeRequests): Promise<Map<number, { opened: number; closed: number }>> {
    const counts = new Map<number, { opened: number; closed: number }>();
    if (labelIds.length === 0) return counts;
    const { read, values } = readOf(counted);
    for (const row of await read.all({ ...values, countedLabelIds: [...labelIds] })) {
      let entry = counts.get(row.labelId);
      if (!entry) counts.set(row.labelId, (entry = { opened: 0, closed: 0 }));
      if (row.state === 'opened') entry.opened += row.count;
      else entry.closed += row.count;
    }
    return counts;
  };
}
