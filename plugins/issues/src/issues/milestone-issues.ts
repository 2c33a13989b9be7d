/** The issues of a milestone, for `GET /projects/:id/milestones/:milestone_id/issues` and the group route, served by the milestones plugin. */
import type { MilestoneItemsLister } from '@forgekit/plugin-milestones/contracts';
import { ALL_ISSUES, type IssueLister } from './issue-list.js';
import { idOrder } from './issue-order.js';
import type { PresentIssues } from './issue-presenter.js';
import type { IssueStore } from './issue-store.js';

export function milestoneIssues(deps: { store: IssueStore; lister: IssueLister; present: PresentIssues; externalUrl: string }): MilestoneItemsLister {
  return async ({ milestone, parent, user, perPage, offset }) => {
    const filter = { ...(await deps.lister(user, parent, ALL_ISSUES)), milestone: [milestone.id] };
    const issues = await deps.store.list(filter, idOrder('asc'), perPage, offset);
    const items = await deps.present(issues, { externalUrl: deps.externalUrl, full: false, withLabelsDetails: false });
    return { items, total: offset === 0 && issues.length < perPage ? issues.length : await deps.store.count(filter) };
  };
}
