/** `/projects/:id/runners` and `/groups/:id/runners`: runners available to a project or group. */
import { apiError, checkUnmodifiedSince, created, defineRoute, f, forbidden, noContent, notFound, params, recordNotFound, type Route } from '@forgekit/kernel';
import { AccessLevel, type Namespace, type Project } from '@forgekit/plugin-core/contracts';
import { RunnerEntity } from '../entities/runner.js';
import { RunnerProjectEntity } from '../entities/runner-project.js';
import type { LimitError } from '../limits/runner-limits.js';
import type { RunnerDeps } from '../shared/deps.js';
import { fullMessages } from './runner-attributes.js';
import { applyFilters, filterByScope, filterFields, scopeField, type RunnerConditions } from './runner-filters.js';
import type { RunnerRow } from './runner-row.js';
import { runnerSchema } from './runner-schemas.js';

const ancestorIds = (traversalPath: string) => traversalPath.split('/').filter(Boolean).map(Number);

const settingsOf = (json: string): Record<string, unknown> => (json ? JSON.parse(json) : {});

const TAKEN = 'Assign to Validation failed: Runner projects runner has already been taken';

const limitFailure = (exceeded: LimitError) => `Assign to Validation failed: ${fullMessages({ [exceeded.key]: [exceeded.message] })[0]}`;

/** GitLab's answer when assigning fails after the permission checks. */
const assignFailed = (message: string) => apiError(400, `${message} - runner_error`);

export function scopedRunnerRoutes(deps: RunnerDeps): Route[] {
  const { database, access, store, permissions, presenter, runnerPage, limits } = deps;

  /** Instance runners, when the project or group allows shared runners. */
  const instanceRunners = (q: RunnerConditions) => q.orWhere('r.runnerType', 'instance_type');

  /** The project's own runners, its groups' runners, and instance runners if it allows them. */
  function projectRunners(project: Project) {
    const groupIds = project.namespace.kind === 'group' ? ancestorIds(project.namespace.traversalPath) : [];
    const sharedEnabled = settingsOf(project.settings).shared_runners_enabled !== false;
    return database.from(RunnerEntity, 'r').where((q) => {
      q.whereIn('r.id', database.table(RunnerProjectEntity).select('runnerId').where('projectId', project.id));
      if (groupIds.length > 0) q.orWhereIn('r.groupId', groupIds);
      if (sharedEnabled) instanceRunners(q);
    });
  }

  /** The group's and its ancestors' runners, and instance runners if it allows them. */
  function groupRunners(group: Namespace) {
    const sharedEnabled = (settingsOf(group.settings).shared_runners_setting ?? 'enabled') === 'enabled';
    return database.from(RunnerEntity, 'r').where((q) => {
      q.whereIn('r.groupId', ancestorIds(group.traversalPath));
      if (sharedEnabled) instanceRunners(q);
    });
  }

  /** Why this runner may not be assigned to the project, if it may not. */
  async function assignmentError(runner: RunnerRow, projectId: number): Promise<string | null> {
    if (runner.runnerType === 'instance_type') return 'Transitioning an instance runner to a project runner is not supported';
    if (await store.runnerProject(runner.id, projectId)) return TAKEN;
    const exceeded = await limits.check('project', projectId);
    return exceeded ? limitFailure(exceeded) : null;
  }

  return [
    defineRoute({
      method: 'GET',
      path: '/projects/:id/runners',
      paginated: true,
      response: { schema: runnerSchema },
      input: params({ ...scopeField, ...filterFields }),
      async handler(ctx, input) {
        const { project } = await access.requireProject(ctx.user, ctx.params.id, AccessLevel.MAINTAINER);
        return runnerPage(ctx, applyFilters(filterByScope(projectRunners(project), input.scope), input));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/projects/:id/runners',
      response: { schema: runnerSchema },
      input: params({ runner_id: f.id() }),
      async handler(ctx, input) {
        const user = ctx.user;
        const { project } = await access.requireProject(user, ctx.params.id, AccessLevel.MAINTAINER);
        const runner = await store.findById(input.runner_id);
        if (!runner) throw recordNotFound();
        if (runner.runnerType === 'group_type') throw forbidden('Runner is a group runner');
        if (!user.isAdmin) {
          if (runner.locked) throw forbidden('Runner is locked');
          if (!(await permissions.of(user, runner)).assign) throw forbidden('No access granted');
        }
        const problem = await assignmentError(runner, project.id);
        if (problem) throw assignFailed(problem);
        let late: LimitError | null = null;
        const outcome = await store.assign(runner.id, project.id, async (tx) => {
          late = await limits.check('project', project.id, tx);
          return !late;
        });
        if (outcome === 'taken') throw assignFailed(TAKEN);
        if (late) throw assignFailed(limitFailure(late));
        return created(await presenter.item(runner, ctx.externalUrl));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/projects/:id/runners/:runner_id',
      // 412: changed since `If-Unmodified-Since`.
      response: { status: 204, errors: [412] },
      input: params({ runner_id: f.id() }),
      async handler(ctx, input) {
        const { project } = await access.requireProject(ctx.user, ctx.params.id, AccessLevel.MAINTAINER);
        const assignment = await store.runnerProject(input.runner_id, project.id);
        if (!assignment) throw notFound('Runner');
        const runner = (await store.findById(input.runner_id))!;
        if (runner.ownerProjectId === project.id) throw forbidden('You cannot unassign a runner from the owner project. Delete the runner instead');
        checkUnmodifiedSince(ctx.header('If-Unmodified-Since'), assignment.updatedAt);
        await store.unassign(runner.id, project.id);
        return noContent();
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/groups/:id/runners',
      paginated: true,
      response: { schema: runnerSchema },
      input: params(filterFields),
      async handler(ctx, input) {
        const { group } = await access.requireGroup(ctx.user, ctx.params.id, AccessLevel.MAINTAINER);
        return runnerPage(ctx, applyFilters(groupRunners(group), input));
      },
    }),
  ];
}
