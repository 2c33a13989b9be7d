/** Turns the list params of `/issues`, `/groups/:id/issues` and `/projects/:id/issues` into an IssueFilter for the caller. */
import type { Principal } from '@forgekit/kernel';
import { AccessLevel, type AccessService, type GroupAccess, type ProjectAccess, type UserService } from '@forgekit/plugin-core/contracts';
import type { Iteration, IterationsService } from '@forgekit/plugin-iterations/contracts';
import type { LabelsService } from '@forgekit/plugin-labels/contracts';
import type { MilestonesService } from '@forgekit/plugin-milestones/contracts';
import { dueDateFilter } from './due-date-filter.js';
import type { ConfidentialVisibility, IssueFilter, NegatedFilter, Wildcard } from './issue-filter.js';
import type { CountedIssues } from './issue-label-counts.js';
import type { ListInput } from './issue-params.js';

export type ListScope = { kind: 'project'; access: ProjectAccess } | { kind: 'group'; access: GroupAccess } | { kind: 'instance' };

export interface ListDeps {
  access: AccessService;
  users: UserService;
  labels: LabelsService;
  milestones: MilestonesService;
  iterations?: IterationsService;
  /** The iterations the issues of these projects carry. */
  iterationIdsIn(projectIds: readonly number[]): Promise<number[]>;
}

const CURRENT = 2;

/** List params that keep every issue the caller may see, of either state. */
export const ALL_ISSUES = { state: 'all' } as ListInput;

const idsOf = (path: string) => path.split('/').filter(Boolean).map(Number);

const wildcard = (value: string): Wildcard | null => {
  const word = value.toLowerCase();
  return word === 'none' ? 'none' : word === 'any' ? 'any' : null;
};

/** Which confidential issues the caller sees in the projects under a group (or anywhere): all for an admin, else those of projects where they plan. */
async function confidentialVisibility(access: AccessService, user: Principal | null, under: { underTraversalPath?: string }): Promise<ConfidentialVisibility> {
  if (user?.isAdmin) return { all: true };
  const projectIds = user ? await access.visibleProjectIds(user, { ...under, minLevel: AccessLevel.PLANNER }) : [];
  return { all: false, projectIds, userId: user?.id ?? null };
}

/**
 * Every issue the caller may list in a project or group, for counts: a group's projects stay a
 * query, so a group of thousands of projects costs one statement, not a list of their ids.
 */
export async function everyListableIssue(access: AccessService, user: Principal, scope: Exclude<ListScope, { kind: 'instance' }>): Promise<CountedIssues> {
  if (scope.kind === 'project') {
    const { project, level } = scope.access;
    const all = user.isAdmin || level >= AccessLevel.PLANNER;
    return { projectIds: [project.id], confidential: all ? { all: true } : { all: false, projectIds: [], userId: user.id } };
  }
  const under = { underTraversalPath: scope.access.group.traversalPath };
  return { projects: access.visibleProjectsShape(user, under), confidential: await confidentialVisibility(access, user, under) };
}

export function createIssueLister(deps: ListDeps) {
  /** The projects in scope, the ones whose confidential issues the caller sees in full, and the groups whose milestones apply. */
  async function scopeOf(user: Principal | null, scope: ListScope) {
    if (scope.kind === 'project') {
      const { project, level } = scope.access;
      const all = !!user?.isAdmin || level >= AccessLevel.PLANNER;
      const confidential: ConfidentialVisibility = all ? { all: true } : { all: false, projectIds: [], userId: user?.id ?? null };
      return { projectIds: [project.id], confidential, groupIds: project.namespace.kind === 'group' ? idsOf(project.namespace.traversalPath) : [] };
    }
    const under = scope.kind === 'group' ? { underTraversalPath: scope.access.group.traversalPath } : {};
    const projectIds = await deps.access.visibleProjectIds(user, under);
    const confidential = await confidentialVisibility(deps.access, user, under);
    const groupIds = scope.kind === 'group' ? idsOf(scope.access.group.traversalPath) : await deps.access.visibleGroupIds(user);
    return { projectIds, confidential, groupIds };
  }

  async function userIdsNamed(usernames: readonly string[]): Promise<number[]> {
    const users = await Promise.all(usernames.map((name) => deps.users.findByUsername(name)));
    return users.map((user) => user?.id ?? -1);
  }

  /** Label ids per title, among the labels the projects in scope may use. */
  async function labelIdsPerTitle(projectIds: readonly number[], titles: readonly string[]): Promise<number[][]> {
    return Promise.all(
      titles.map(async (title) => {
        const perProject = await Promise.all(projectIds.map((projectId) => deps.labels.idsMatching(projectId, [title])));
        return [...new Set(perProject.flat())];
      }),
    );
  }

  /** Ids of the iterations issues in scope carry that pass `keep` (GitLab asks the iterations table; here the iterations plugin). */
  async function iterationIdsWhere(projectIds: readonly number[], keep: (iteration: Iteration) => boolean): Promise<number[]> {
    const { iterations } = deps;
    if (!iterations) return [];
    const ids = await deps.iterationIdsIn(projectIds);
    return ids.length === 0 ? [] : (await iterations.byIds(ids)).filter(keep).map((iteration) => iteration.id);
  }

  async function iterationIds(
    projectIds: readonly number[],
    id: string | null | undefined,
    title: string | null | undefined,
  ): Promise<Wildcard | number[] | undefined> {
    if (title != null) return iterationIdsWhere(projectIds, (iteration) => iteration.title === title);
    if (id == null) return undefined;
    const word = id.toLowerCase();
    if (word === 'none' || word === 'any') return word;
    if (word === 'current') return iterationIdsWhere(projectIds, (iteration) => deps.iterations?.stateOf(iteration) === CURRENT);
    return [Number(id)];
  }

  return async function filterFor(user: Principal | null, scope: ListScope, input: ListInput): Promise<IssueFilter> {
    const { projectIds, confidential, groupIds } = await scopeOf(user, scope);
    const milestoneScope = { projectIds, groupIds };
    const filter: IssueFilter = { projectIds, confidentialVisibility: confidential };

    if (input.state && input.state !== 'all') filter.state = input.state;
    if (input.iids?.length) filter.iids = input.iids;
    if (input.author_id != null) filter.authorIds = [input.author_id];
    if (input.author_username != null) filter.authorIds = await userIdsNamed([input.author_username]);

    const scopeName = (input.scope ?? 'all').replace(/-/g, '_');
    if (scopeName === 'created_by_me') {
      const mine = user?.id ?? -1;
      filter.authorIds = filter.authorIds ? filter.authorIds.filter((id) => id === mine) : [mine];
    }

    if (input.assignee_id != null) filter.assignee = wildcard(input.assignee_id) ?? [Number(input.assignee_id)];
    if (input.assignee_username?.length) filter.assignee = await userIdsNamed(input.assignee_username);
    if (scopeName === 'assigned_to_me') {
      const mine = user?.id ?? -1;
      filter.assignee = Array.isArray(filter.assignee) ? [...filter.assignee, mine] : filter.assignee === 'none' ? [-1] : [mine];
    }

    if (input.labels?.length) {
      const single = input.labels.length === 1 ? wildcard(input.labels[0]!) : null;
      filter.labels = single ?? (await labelIdsPerTitle(projectIds, input.labels));
    }

    const milestone = input.milestone_id ?? input.milestone;
    if (milestone != null) {
      const word = wildcard(milestone);
      if (word) filter.milestone = word;
      else if (milestone === 'Upcoming' || milestone === 'Started') filter.milestone = await deps.milestones.idsForFilter(milestoneScope, milestone);
      else filter.milestone = await deps.milestones.idsForFilter(milestoneScope, { title: milestone });
    }

    const iteration = await iterationIds(projectIds, input.iteration_id, input.iteration_title);
    if (iteration) filter.iteration = iteration;
    if (input.due_date) filter.dueDate = dueDateFilter(input.due_date);

    if (input.search) filter.search = { text: input.search, in: input.in ?? [] };
    if (input.created_after) filter.createdAfter = input.created_after;
    if (input.created_before) filter.createdBefore = input.created_before;
    if (input.updated_after) filter.updatedAfter = input.updated_after;
    if (input.updated_before) filter.updatedBefore = input.updated_before;
    if (input.confidential != null) filter.confidential = input.confidential;

    if (input.not) {
      const not: NegatedFilter = {};
      const given = input.not;
      if (given.iids?.length) not.iids = given.iids;
      if (given.author_id != null) not.authorIds = [given.author_id];
      if (given.author_username != null) not.authorIds = await userIdsNamed([given.author_username]);
      if (given.assignee_id != null) not.assigneeIds = [given.assignee_id];
      if (given.assignee_username?.length) not.assigneeIds = await userIdsNamed(given.assignee_username);
      if (given.labels?.length) not.labels = await labelIdsPerTitle(projectIds, given.labels);
      const iteration = await iterationIds(projectIds, given.iteration_id, given.iteration_title);
      // Not None: issues with an iteration; not Any: issues without one.
      if (iteration === 'none') filter.iteration = filter.iteration ?? 'any';
      else if (iteration === 'any') filter.iteration = filter.iteration ?? 'none';
      else if (iteration) not.iterationIds = iteration;
      if (given.milestone != null) not.milestoneIds = await deps.milestones.idsForFilter(milestoneScope, { title: given.milestone });
      filter.not = not;
    }
    return filter;
  };
}

export type IssueLister = ReturnType<typeof createIssueLister>;
