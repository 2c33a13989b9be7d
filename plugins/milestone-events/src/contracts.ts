/** What other plugins may use of milestone events: the recorder, and the extension point for the resources events are served under. */
import { createServiceRef, type Principal, type Transaction } from '@forgekit/kernel';

export type MilestoneEventResourceType = 'Issue' | 'MergeRequest';

export interface MilestoneChange {
  resourceType: MilestoneEventResourceType;
  /** The resource's global id. */
  resourceId: number;
  projectId: number;
  userId: number;
  /** The milestone before and after; an event is recorded for each side that changed. */
  from: number | null;
  to: number | null;
  /** The resource's state when it changed (`opened`, `closed`, `merged`…). */
  state: string;
  /** Record in the caller's transaction. */
  tx?: Transaction;
}

/** Finds the resource of an event route for the caller, or throws GitLab's 404s. */
export type MilestoneEventResourceResolver = (user: Principal | null, projectIdOrPath: string, iid: string) => Promise<{ id: number; projectId: number }>;

export interface MilestoneEventsService {
  /** One `remove` event for `from` and one `add` event for `to`, when they differ. */
  record(change: MilestoneChange): Promise<void>;
  /** Serves `/projects/:id/<path segment>/:iid/resource_milestone_events` for a resource type. */
  registerResource(resourceType: MilestoneEventResourceType, resolver: MilestoneEventResourceResolver): void;
  removeAllFor(resourceType: MilestoneEventResourceType, resourceId: number): Promise<void>;
}

export const milestoneEventsServiceRef = createServiceRef<MilestoneEventsService>('milestone-events.recorder');
