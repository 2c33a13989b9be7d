/**
 * Project and group milestones: GitLab's list filters, create and update with its
 * validations and texts, state events, and the lookups other plugins use.
 */
import { apiError, recordNotFound, type EventBus, type Principal } from '@forgekit/kernel';
import type { AccessService } from '@forgekit/plugin-core/contracts';
import {
  milestoneLifecycle,
  type Milestone,
  type MilestoneFilter,
  type MilestoneItemKind,
  type MilestoneItemsLister,
  type MilestonesService,
} from '../contracts.js';
import type { ParentDirectory, ParentInfo } from './milestone-parents.js';
import { presentMilestone } from './milestone-presenter.js';
import { castDate, cleanTitle, rubyInspect, validateMilestone, type MilestoneFields } from './milestone-rules.js';
import type { MilestoneQuery, MilestoneStore, Parent, StoredMilestone, TitleScope } from './milestone-store.js';

export interface MilestoneInput {
  title?: string | null;
  description?: string | null;
  due_date?: string | null;
  start_date?: string | null;
  state_event?: 'close' | 'activate' | null;
}

export interface ListInput {
  state: 'active' | 'closed' | 'all' | null;
  iids?: number[] | null;
  title?: string | null;
  search?: string | null;
  include_parent_milestones?: boolean | null;
  include_ancestors?: boolean | null;
  include_descendants?: boolean | null;
  updated_before?: Date | null;
  updated_after?: Date | null;
}

type Changes = Record<string, { previous: unknown; current: unknown }>;

const WIRE_NAMES: Record<string, string> = { title: 'title', description: 'description', dueDate: 'due_date', startDate: 'start_date', state: 'state' };

export function createMilestoneService(store: MilestoneStore, parents: ParentDirectory, access: AccessService, events: EventBus) {
  const listers = new Map<MilestoneItemKind, MilestoneItemsLister>();

  /**
   * Where a title must be unique: the project's milestones and its group's, or the group's
   * and its own projects' (those among the milestones holding the title now).
   */
  async function titleScope(parent: ParentInfo, title: string): Promise<TitleScope> {
    if (parent.kind === 'project') return { title, projectIds: [parent.id], groupIds: parent.groupId ? [parent.groupId] : [] };
    const projectIds: number[] = [];
    for (const milestone of await store.projectMilestonesTitled(title)) {
      if ((await parents.projectGroupId(milestone.projectId!)) === parent.id) projectIds.push(milestone.projectId!);
    }
    return { title, projectIds, groupIds: [parent.id] };
  }

  const failure = (verb: 'create' | 'update', errors: Record<string, string[]>) => apiError(400, `Failed to ${verb} milestone ${rubyInspect(errors)}`);
  const TAKEN = validateMilestone({ title: 'x', description: null, startDate: null, dueDate: null }, true);

  /** GitLab's validations; answers the scope to hold the title in while writing, or null when the title stays. */
  async function validate(parent: ParentInfo, fields: MilestoneFields, verb: 'create' | 'update', previous?: StoredMilestone) {
    const scope = fields.title !== undefined && fields.title !== previous?.title ? await titleScope(parent, fields.title) : null;
    const taken = scope !== null && (await store.withTitle(scope.title, scope.projectIds, scope.groupIds, previous?.id)).length > 0;
    const errors = validateMilestone(fields, taken);
    if (Object.keys(errors).length > 0) throw failure(verb, errors);
    return scope;
  }

  const payload = (milestone: Milestone, userId: number | null) => ({
    milestoneId: milestone.id,
    projectId: milestone.projectId,
    groupId: milestone.groupId,
    userId,
    milestone,
  });

  async function find(parent: ParentInfo, id: number): Promise<Milestone> {
    const milestone = await store.findIn(parent, id);
    if (!milestone) throw recordNotFound();
    return (await parents.withUrls([milestone], [parent]))[0]!;
  }

  /** The projects and groups a list covers, as GitLab's `parent_finder_params`. */
  async function scopeOf(
    parent: ParentInfo,
    user: Principal,
    options: { ancestors: boolean; descendants: boolean },
  ): Promise<Pick<MilestoneQuery, 'projectIds' | 'groupIds'>> {
    if (parent.kind === 'project') return { projectIds: [parent.id], groupIds: options.ancestors ? parent.groupLineage : [] };
    if (!options.ancestors && !options.descendants) return { projectIds: [], groupIds: [parent.id] };
    const groupIds = new Set(options.ancestors ? parent.groupLineage : [parent.id]);
    let projectIds: number[] = [];
    if (options.descendants) {
      for (const id of await parents.within(parent.id, await store.groupIdsWithMilestones())) groupIds.add(id);
      projectIds = await access.visibleProjectIds(user, { underTraversalPath: `/${parent.groupLineage.join('/')}/` });
    }
    return { projectIds, groupIds: await access.visibleGroupIds(user, { ids: [...groupIds] }) };
  }

  const service = {
    find,

    async list(parent: ParentInfo, input: ListInput, user: Principal, page: { perPage: number; offset: number }) {
      const withAncestors = !!(input.include_ancestors || input.include_parent_milestones);
      const descendants = parent.kind === 'group' && !!input.include_descendants;
      const filter: MilestoneQuery = {
        ...(await scopeOf(parent, user, { ancestors: withAncestors, descendants })),
        state: input.state ?? 'all',
        // GitLab ignores iids when ancestors are included.
        iids: withAncestors ? undefined : (input.iids ?? undefined),
        title: input.title ?? undefined,
        search: input.search ?? undefined,
        updatedBefore: input.updated_before ?? undefined,
        updatedAfter: input.updated_after ?? undefined,
      };
      const rows = await store.list(filter, page.perPage, page.offset);
      return { milestones: await parents.withUrls(rows, [parent]), count: () => store.count(filter) };
    },

    async create(parent: ParentInfo, input: MilestoneInput, userId: number): Promise<Milestone> {
      const fields: MilestoneFields = {
        title: cleanTitle(input.title),
        description: input.description ?? null,
        startDate: castDate(input.start_date),
        dueDate: castDate(input.due_date),
      };
      const scope = (await validate(parent, fields, 'create'))!;
      const stored = await store.insert(parent, { ...fields, title: fields.title! }, scope);
      if (!stored) throw failure('create', TAKEN);
      const milestone = (await parents.withUrls([stored], [parent]))[0]!;
      await events.emit(milestoneLifecycle.created, payload(milestone, userId));
      return milestone;
    },

    async update(parent: ParentInfo, previous: Milestone, input: MilestoneInput, userId: number): Promise<Milestone> {
      const fields: MilestoneFields = {
        title: cleanTitle(input.title) ?? previous.title,
        description: input.description === undefined ? previous.description : input.description,
        startDate: input.start_date === undefined ? previous.startDate : castDate(input.start_date),
        dueDate: input.due_date === undefined ? previous.dueDate : castDate(input.due_date),
      };
      const scope = await validate(parent, fields, 'update', previous as StoredMilestone);
      const state = input.state_event === 'close' ? 'closed' : input.state_event === 'activate' ? 'active' : previous.state;
      const next = { title: fields.title!, description: fields.description, startDate: fields.startDate, dueDate: fields.dueDate, state };
      const changes: Changes = {};
      for (const [key, value] of Object.entries(next)) {
        const before = previous[key as keyof typeof next];
        if (before !== value) changes[WIRE_NAMES[key]!] = { previous: before, current: value };
      }
      if (Object.keys(changes).length === 0) return previous;
      const { webUrl: _webUrl, ...row } = previous;
      const updated = await store.update(row as StoredMilestone, next, scope);
      if (!updated) throw failure('update', TAKEN);
      const stored: Milestone = { ...updated, webUrl: previous.webUrl };
      const event = payload(stored, userId);
      await events.emit(milestoneLifecycle.updated, { ...event, changes });
      if (changes.state) await events.emit(state === 'closed' ? milestoneLifecycle.closed : milestoneLifecycle.reopened, event);
      return stored;
    },

    async remove(milestone: Milestone, userId: number) {
      await store.remove(milestone.id);
      await events.emit(milestoneLifecycle.deleted, payload(milestone, userId));
    },

    /**
     * GitLab's promotion: a new group milestone (active, with the milestone's title, description
     * and dates) replaces every milestone of that title in the group's own projects.
     */
    async promote(parent: ParentInfo, milestone: Milestone, userId: number): Promise<Milestone> {
      const groupId = parent.groupId!;
      const from: StoredMilestone[] = [];
      for (const candidate of await store.projectMilestonesTitled(milestone.title)) {
        if ((await parents.projectGroupId(candidate.projectId!)) === groupId) from.push(candidate);
      }
      const fields = { title: milestone.title, description: milestone.description, startDate: milestone.startDate, dueDate: milestone.dueDate };
      const stored = await store.promote(
        groupId,
        fields,
        from.map((old) => old.id),
      );
      if (!stored) throw apiError(400, 'Promotion failed - Title already being used for another group or project milestone.');
      const promoted = (await parents.withUrls([stored]))[0]!;
      await events.emit(milestoneLifecycle.created, payload(promoted, userId));
      await events.emit(milestoneLifecycle.merged, { from: from.map((old) => old.id), to: promoted.id, groupId, userId });
      for (const old of await parents.withUrls(from)) await events.emit(milestoneLifecycle.deleted, payload(old, userId));
      return promoted;
    },

    /** The items a registered plugin lists for the milestone; none without one. */
    async items(kind: MilestoneItemKind, query: Parameters<MilestoneItemsLister>[0]) {
      const lister = listers.get(kind);
      return lister ? lister(query) : { items: [], total: 0 };
    },

    /** A deleted project's or group's milestones go with it; listeners hear of each. */
    async removeAllOf(parent: Parent) {
      const ids = await store.removeAllOf(parent);
      for (const milestoneId of ids) {
        await events.emit(milestoneLifecycle.deleted, {
          milestoneId,
          projectId: parent.kind === 'project' ? parent.id : null,
          groupId: parent.kind === 'group' ? parent.id : null,
          userId: null,
        });
      }
    },
  };

  const contract: MilestonesService = {
    async forProject(projectId, milestoneId) {
      const milestone = (await store.byIds([milestoneId]))[0];
      if (!milestone) return null;
      if (milestone.projectId !== projectId) {
        const found = await parents.lookup({ kind: 'project', id: projectId });
        if (milestone.groupId === null || !found?.groupLineage.includes(milestone.groupId)) return null;
      }
      return (await parents.withUrls([milestone]))[0]!;
    },
    byIds: async (ids, options) =>
      parents.withUrls(
        await store.byIds(ids),
        [...(options?.projectPaths ?? [])].map(([id, fullPath]) => ({ kind: 'project' as const, id, fullPath })),
      ),
    canRead: (user, milestone) => parents.canRead(user, milestone),
    entity: presentMilestone,
    async idsForFilter(scope, filter: MilestoneFilter) {
      if (filter === 'Upcoming') return store.upcomingIds(scope.projectIds, scope.groupIds);
      if (filter === 'Started') return store.startedIds(scope.projectIds, scope.groupIds);
      return store.idsTitled(filter.title, scope.projectIds, scope.groupIds);
    },
    registerItems(kind, lister) {
      listers.set(kind, lister);
    },
  };

  return { ...service, contract };
}

export type MilestoneService = ReturnType<typeof createMilestoneService>;
