/**
 * GitLab's roll-over: when an iteration of a cadence that rolls over closes, its open issues
 * move to the cadence's next iteration. Closed issues stay where they were finished.
 */
import type { IterationClosed } from '@forgekit/plugin-iterations/contracts';
import type { IssueFilter } from './issue-filter.js';
import { plainOrder } from './issue-order.js';
import type { IssueStore } from './issue-store.js';

const BATCH = 100;
const nothingElse = async () => {};

export function iterationRollOver(store: IssueStore) {
  return async ({ iterationId, rollOver, nextIterationId }: IterationClosed): Promise<number> => {
    if (!rollOver || nextIterationId === null || nextIterationId === iterationId) return 0;
    const filter: IssueFilter = { projectIds: null, confidentialVisibility: { all: true }, state: 'opened', iteration: [iterationId] };
    const order = plainOrder('created_at', 'asc')!;
    let moved = 0;
    // Each moved issue leaves the filter, so the first page is always the next batch.
    for (let batch = await store.list(filter, order, BATCH, 0); batch.length > 0; batch = await store.list(filter, order, BATCH, 0)) {
      const updatedAt = new Date();
      for (const issue of batch) {
        await store.update(issue, { iterationId: nextIterationId, updatedAt }, {}, nothingElse);
        moved += 1;
      }
    }
    return moved;
  };
}
