/** Turns the list params of `/merge_requests`, `/groups/:id/merge_requests` and `/projects/:id/merge_requests` into a filter for the caller. */
import { keptUnderMark, PAGES_KEPT, requestMark, type Principal } from '@forgekit/kernel';
import type { AccessService, GroupAccess, ProjectAccess, UserService } from '@forgekit/plugin-core/contracts';
import type { Label, LabelsService } from '@forgekit/plugin-labels/contracts';
import type { MilestonesService } from '@forgekit/plugin-milestones/contracts';
import type { MergeRequestFilter, NegatedFilter, Wildcard } from './mr-filter.js';
import type { CountedMergeRequests } from './mr-label-counts.js';
import type { ListInput } from './mr-params.js';
import type { MergeRequestStore } from './mr-store.js';

export type ListScope = { kind: 'project'; access: ProjectAccess } | { kind: 'group'; access: GroupAccess } | { kind: 'instance' };

export interface ListDeps {
  access: AccessService;
  users: UserService;
  labels: LabelsService;
  milestones: MilestonesService;
  store: Pick<MergeRequestStore, 'labelIdsIn'>;
}

/**
 * Every merge request the caller may list in a project or group, for label counts: a group's
 * projects stay a query the count runs.
 */
export function everyListableMergeRequest(access: AccessService, user: Principal, scope: Exclude<ListScope, { kind: 'instance' }>): CountedMergeRequests {
  if (scope.kind === 'project') return { projectIds: [scope.access.project.id] };
  return { projects: access.visibleProjectsShape(user, { underTraversalPath: scope.access.group.traversalPath }) };
}

/**
 * The labels a filter's titles were looked up among: every label the merge requests in its
 * scope carry, so the page's presenter need not read them again.
 */
const carriedLabels = new WeakMap<MergeRequestFilter, readonly Label[]>();
export const labelsCarriedIn = (filter: MergeRequestFilter): readonly Label[] | undefined => carriedLabels.get(filter);

/** Scopes of more projects than this read their carried labels afresh (see `labelsCarried`). */
const CARRIED_KEY_PROJECTS = 1000;

const idsOf = (path: string) => path.split('/').filter(Boolean).map(Number);

const wildcard = (value: string): Wildcard | null => {
  const word = value.toLowerCase();
  return word === 'none' ? 'none' : word === 'any' ? 'any' : null;
};

export function createMergeRequestLister(deps: ListDeps) {
  /**
   * The projects in scope (`every` for an admin at instance scope, who sees them all: no
   * statement reads them, and the list's statement needs no project condition), their ids
   * for the filters that need them listed, and the groups whose milestones count (read only
   * when a milestone filter asks).
   */
  async function scopeOf(
    user: Principal | null,
    scope: ListScope,
  ): Promise<{ projectIds: number[] | 'every'; ids: () => Promise<number[]>; groupIds: () => Promise<number[]> }> {
    if (scope.kind === 'project') {
      const { project } = scope.access;
      const groupIds = project.namespace.kind === 'group' ? idsOf(project.namespace.traversalPath) : [];
      const projectIds = [project.id];
      return { projectIds, ids: async () => projectIds, groupIds: async () => groupIds };
    }
    if (scope.kind === 'instance' && user?.isAdmin) {
      let ids: Promise<number[]> | undefined;
      return { projectIds: 'every', ids: () => (ids ??= deps.access.visibleProjectIds(user)), groupIds: () => deps.access.visibleGroupIds(user) };
    }
    const under = scope.kind === 'group' ? { underTraversalPath: scope.access.group.traversalPath } : {};
    const projectIds = await deps.access.visibleProjectIds(user, under);
    if (scope.kind === 'group') {
      const groupIds = idsOf(scope.access.group.traversalPath);
      return { projectIds, ids: async () => projectIds, groupIds: async () => groupIds };
    }
    return { projectIds, ids: async () => projectIds, groupIds: () => deps.access.visibleGroupIds(user) };
  }

  /**
   * The labels carried in these projects, kept between reading requests under their change
   * mark: an instance or group list filtered by label reads them on every request otherwise.
   * A scope of many projects (a long key) is read afresh.
   */
  const keptCarried = keptUnderMark<readonly Label[]>(PAGES_KEPT);
  const labelsCarried = async (projectIds: readonly number[] | 'every', mark: number | undefined) => {
    const read = async () => deps.labels.byIds(await deps.store.labelIdsIn(projectIds));
    if (projectIds !== 'every' && projectIds.length > CARRIED_KEY_PROJECTS) return read();
    return keptCarried(projectIds === 'every' ? 'every' : projectIds.join(','), mark, read);
  };

  const userIdNamed = async (username: string) => (await deps.users.findByUsername(username))?.id ?? -1;

  /**
   * Label ids per title among the labels the projects in scope may use. One project asks the
   * labels plugin; many (group and instance lists) read the labels their merge requests carry
   * and keep those of each title, in two statements whatever the number of projects: a label
   * no merge request in scope carries could not match anyway, and merge requests only carry
   * labels their project may use.
   */
  async function labelIdsPerTitle(
    projectIds: readonly number[] | 'every',
    titles: readonly string[],
    mark: number | undefined,
    read?: (carried: readonly Label[]) => void,
  ): Promise<number[][]> {
    if (projectIds !== 'every' && projectIds.length === 1) return Promise.all(titles.map((title) => deps.labels.idsMatching(projectIds[0]!, [title])));
    const carried = await labelsCarried(projectIds, mark);
    read?.(carried);
    return titles.map((title) => carried.filter((label) => label.title === title).map((label) => label.id));
  }

  const userFilter = async (id: string | null | undefined, username: string | null | undefined): Promise<Wildcard | number[] | undefined> => {
    if (username != null) return [await userIdNamed(username)];
    if (id == null) return undefined;
    return wildcard(id) ?? [Number(id)];
  };

  return async function filterFor(user: Principal | null, scope: ListScope, input: ListInput): Promise<MergeRequestFilter> {
    const { projectIds, ids: projectIdsListed, groupIds: groupIdsOf } = await scopeOf(user, scope);
    const filter: MergeRequestFilter = { projectIds };
    const mine = user?.id ?? -1;
    const mark = requestMark(user);

    if (input.state && input.state !== 'all') filter.state = input.state;
    if (input.iids?.length) filter.iids = input.iids;
    if (input.author_id != null) filter.authorIds = [input.author_id];
    if (input.author_username != null) filter.authorIds = [await userIdNamed(input.author_username)];
    filter.assignee = await userFilter(input.assignee_id, input.assignee_username);
    filter.reviewer = await userFilter(input.reviewer_id, input.reviewer_username);
    if (input.merge_user_id != null) filter.mergedByIds = [input.merge_user_id];
    if (input.merge_user_username != null) filter.mergedByIds = [await userIdNamed(input.merge_user_username)];

    const scopeName = (input.scope ?? 'all').replace(/-/g, '_');
    if (scopeName === 'created_by_me') filter.authorIds = filter.authorIds ? filter.authorIds.filter((id) => id === mine) : [mine];
    if (scopeName === 'assigned_to_me') filter.assignee = Array.isArray(filter.assignee) ? [...filter.assignee, mine] : [mine];
    if (scopeName === 'reviews_for_me') filter.reviewer = Array.isArray(filter.reviewer) ? [...filter.reviewer, mine] : [mine];

    if (input.labels?.length) {
      const single = input.labels.length === 1 ? wildcard(input.labels[0]!) : null;
      filter.labels = single ?? (await labelIdsPerTitle(projectIds, input.labels, mark, (carried) => carriedLabels.set(filter, carried)));
    }
    if (input.milestone != null) {
      const groupIds = await groupIdsOf();
      const word = wildcard(input.milestone);
      filter.milestone =
        word ??
        (input.milestone === 'Upcoming' || input.milestone === 'Started'
          ? await deps.milestones.idsForFilter({ projectIds: await projectIdsListed(), groupIds }, input.milestone)
          : await deps.milestones.idsForFilter({ projectIds: await projectIdsListed(), groupIds }, { title: input.milestone }));
    }
    if (input.source_branch != null) filter.sourceBranch = input.source_branch;
    if (input.target_branch != null) filter.targetBranch = input.target_branch;
    if (input.source_project_id != null && !(await projectIdsListed()).includes(input.source_project_id)) filter.nothing = true;
    if (input.wip) filter.draft = input.wip === 'yes';
    if (input.search) {
      const fields = (input.in ?? '').split(',').map((part) => part.trim());
      filter.search = { text: input.search, in: fields.filter((part): part is 'title' | 'description' => part === 'title' || part === 'description') };
    }
    if (input.created_after) filter.createdAfter = input.created_after;
    if (input.created_before) filter.createdBefore = input.created_before;
    if (input.updated_after) filter.updatedAfter = input.updated_after;
    if (input.updated_before) filter.updatedBefore = input.updated_before;
    // No deployments, approvals or award emoji exist here yet: filters that need one match nothing.
    if (input.environment || input.deployed_after || input.deployed_before) filter.nothing = true;
    if (input.approved_by_ids?.length && wildcard(input.approved_by_ids[0]!) !== 'none') filter.nothing = true;
    if (input.approved === 'yes') filter.nothing = true;
    if (input.my_reaction_emoji != null && wildcard(input.my_reaction_emoji) !== 'none') filter.nothing = true;

    if (input.not) {
      const not: NegatedFilter = {};
      const given = input.not;
      if (given.author_id != null) not.authorIds = [given.author_id];
      if (given.author_username != null) not.authorIds = [await userIdNamed(given.author_username)];
      if (given.assignee_id != null) not.assigneeIds = [given.assignee_id];
      if (given.assignee_username != null) not.assigneeIds = [await userIdNamed(given.assignee_username)];
      if (given.reviewer_id != null) not.reviewerIds = [given.reviewer_id];
      if (given.reviewer_username != null) not.reviewerIds = [await userIdNamed(given.reviewer_username)];
      if (given.labels?.length) not.labels = await labelIdsPerTitle(projectIds, given.labels, mark);
      if (given.milestone != null)
        not.milestoneIds = await deps.milestones.idsForFilter(
          { projectIds: await projectIdsListed(), groupIds: await groupIdsOf() },
          { title: given.milestone },
        );
      filter.not = not;
    }
    return filter;
  };
}

export type MergeRequestLister = ReturnType<typeof createMergeRequestLister>;
