/** What other plugins may use of milestones: lookups for the items that carry them, visibility, the milestone as the API shows it, events. */
import { createServiceRef, defineEvent, type Principal } from '@forgekit/kernel';
import type { GroupAccess, ProjectAccess } from '@forgekit/plugin-core/contracts';

export interface Milestone {
  id: number;
  /** Per project, or per group. */
  iid: number;
  projectId: number | null;
  groupId: number | null;
  title: string;
  description: string | null;
  state: 'active' | 'closed';
  /** `YYYY-MM-DD` */
  dueDate: string | null;
  startDate: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** The milestone's page (`<host>/<project path>/-/milestones/<iid>`, or `<host>/groups/<group path>/-/milestones/<iid>`). */
  webUrl: string;
}

/** GitLab's Milestone entity on the wire (`id`, `iid`, `title`, `web_url` …), as issues and milestone events show it. */
export type PresentedMilestone = Record<string, unknown>;

/** A milestone filter of the issue and merge-request lists, besides `None` and `Any`. */
export type MilestoneFilter = { title: string } | 'Upcoming' | 'Started';

/** A project or a group with the caller's access to it, as core found it for the route. */
export type MilestoneItemsParent = { kind: 'project'; access: ProjectAccess } | { kind: 'group'; access: GroupAccess };

/** What `GET /projects/:id/milestones/:milestone_id/issues` (and `/groups/...`) asks the plugin that owns the items. */
export interface MilestoneItemsQuery {
  milestone: Milestone;
  /** The project or group the route names, as the caller's access to it was found: its items that carry the milestone. */
  parent: MilestoneItemsParent;
  user: Principal;
  perPage: number;
  offset: number;
}

/** One page of the items (GitLab's `IssueBasic` / `MergeRequestBasic` entities) and their total. */
export type MilestoneItemsLister = (query: MilestoneItemsQuery) => Promise<{ items: Record<string, unknown>[]; total: number }>;

export type MilestoneItemKind = 'issues' | 'merge_requests';

export interface MilestonesService {
  /** The milestone if it is the project's or one of its ancestor groups', else null: the only ones an issue may take. */
  forProject(projectId: number, milestoneId: number): Promise<Milestone | null>;
  /** `projectPaths` (project id → `group/project`) are paths the caller already knows, which save a lookup for `web_url`. */
  byIds(ids: readonly number[], options?: { projectPaths?: ReadonlyMap<number, string> }): Promise<Milestone[]>;
  /** Whether the caller may read the milestone's project or group. */
  canRead(user: Principal | null, milestone: Milestone): Promise<boolean>;
  entity(milestone: Milestone): PresentedMilestone;
  /** Ids of the milestones a filter names among those of these projects and groups (GitLab's meaning of Upcoming and Started). */
  idsForFilter(scope: { projectIds: readonly number[]; groupIds: readonly number[] }, filter: MilestoneFilter): Promise<number[]>;
  /** The issues (or merge requests) plugin serves `.../milestones/:milestone_id/<kind>`; without one the list is empty. */
  registerItems(kind: MilestoneItemKind, lister: MilestoneItemsLister): void;
}

export const milestonesServiceRef = createServiceRef<MilestonesService>('milestones.milestones');

type Changes = Readonly<Record<string, { previous: unknown; current: unknown }>>;
interface MilestoneEvent {
  milestoneId: number;
  projectId: number | null;
  groupId: number | null;
  userId: number | null;
  /** The milestone after the change (before it, for `deleted`), for webhook payloads. */
  milestone?: Milestone;
}

export const milestoneLifecycle = {
  created: defineEvent<MilestoneEvent>('milestone.created'),
  updated: defineEvent<MilestoneEvent & { changes: Changes }>('milestone.updated'),
  closed: defineEvent<MilestoneEvent>('milestone.closed'),
  reopened: defineEvent<MilestoneEvent>('milestone.reopened'),
  deleted: defineEvent<MilestoneEvent>('milestone.deleted'),
  /**
   * Promotion replaced the project milestones `from` (every milestone of that title in the
   * group's own projects) by the new group milestone `to`. Issues and merge requests of the
   * group's projects carrying a `from` milestone must carry `to` instead; the `from`
   * milestones' own `milestone.deleted` follow this event.
   */
  merged: defineEvent<{ from: number[]; to: number; groupId: number; userId: number | null }>('milestone.merged'),
};
export { milestoneSchema } from './milestones/milestone-schemas.js';
