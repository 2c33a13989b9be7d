/** The merge requests of a milestone, for `GET /projects/:id/milestones/:milestone_id/merge_requests` and the group route, served by the milestones plugin. */
import type { MilestoneItemsLister } from '@forgekit/plugin-milestones/contracts';
import type { MergeRequestLister } from './mr-list.js';
import type { createMergeRequestOrderer } from './mr-order.js';
import type { ListInput } from './mr-params.js';
import type { PresentMergeRequests } from './mr-presenter.js';
import type { MergeRequestStore } from './mr-store.js';

/** Every merge request the caller may see in the project or group, whatever its state or author. */
const ALL_MERGE_REQUESTS = { state: 'all', scope: 'all' } as ListInput;

export function milestoneMergeRequests(deps: {
  store: MergeRequestStore;
  lister: MergeRequestLister;
  orderFor: ReturnType<typeof createMergeRequestOrderer>;
  present: PresentMergeRequests;
  externalUrl: string;
}): MilestoneItemsLister {
  return async ({ milestone, parent, user, perPage, offset }) => {
    const filter = { ...(await deps.lister(user, parent, ALL_MERGE_REQUESTS)), milestone: [milestone.id] };
    // GitLab lists a milestone's merge requests by label priority.
    const rows = await deps.store.list(filter, await deps.orderFor('label_priority', 'asc', filter), perPage, offset);
    const items = await deps.present(rows, { externalUrl: deps.externalUrl, full: false, withLabelsDetails: false });
    return { items, total: offset === 0 && rows.length < perPage ? rows.length : await deps.store.count(filter) };
  };
}
