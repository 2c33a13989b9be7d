/** `/runners`, `/runners/all` and `/runners/:id...`: the user-facing runner API. */
import {
  checkUnmodifiedSince,
  defineRoute,
  f,
  forbidden,
  noContent,
  page,
  params,
  recordNotFound,
  reply,
  rules,
  validationFailed,
  type Principal,
  type Route,
} from '@forgekit/kernel';
import { AccessLevel, CI_STATUSES } from '@forgekit/plugin-core/contracts';
import { RunnerEntity } from '../entities/runner.js';
import { RunnerProjectEntity } from '../entities/runner-project.js';
import type { RunnerDeps } from '../shared/deps.js';
import { resetTokenResult } from '../shared/token-results.js';
import { resetTokenResultSchema } from '../shared/token-schemas.js';
import { runnerErrors } from './runner-attributes.js';
import { applyFilters, filterByScope, filterFields, scopeField, STATUSES_INCL_DEPRECATED } from './runner-filters.js';
import { runnerDetailsSchema, runnerJobSchema, runnerSchema } from './runner-schemas.js';
import { settingFields, toSettings } from './runner-settings-input.js';

const UPDATABLE = ['description', 'active', 'paused', 'tag_list', 'run_untagged', 'locked', 'access_level', 'maximum_timeout', 'maintenance_note'];

/** Routes under `/runners/:id` also accept `manage_runner` tokens. */
const MANAGE_RUNNER = ['manage_runner'];

const noAccess = () => forbidden('No access granted');

export function runnerRoutes(deps: RunnerDeps): Route[] {
  const { database, store, permissions, presenter, runnerPage, access } = deps;

  async function load(user: Principal, id: number) {
    const runner = await store.findById(id);
    if (!runner) throw recordNotFound();
    return { runner, abilities: await permissions.of(user, runner) };
  }

  /** Runners assigned to projects the user maintains, and group runners of groups they own. */
  function ownedRunners(maintainedProjectIds: number[], ownedGroupIds: number[]) {
    const assigned = database.table(RunnerProjectEntity).select('runnerId').whereIn('projectId', maintainedProjectIds);
    return database.from(RunnerEntity, 'r').where((q) => q.whereIn('r.id', assigned).orWhereIn('r.groupId', ownedGroupIds));
  }

  return [
    defineRoute({
      method: 'GET',
      path: '/runners',
      paginated: true,
      response: { schema: runnerSchema },
      input: params({ ...scopeField, ...filterFields }),
      async handler(ctx, input) {
        const maintained = await access.visibleProjectIds(ctx.user, { minLevel: AccessLevel.MAINTAINER });
        const owned = await access.visibleGroupIds(ctx.user, { minLevel: AccessLevel.OWNER });
        const query = filterByScope(ownedRunners(maintained, owned), input.scope, STATUSES_INCL_DEPRECATED);
        return runnerPage(ctx, applyFilters(query, input));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/runners/all',
      auth: 'admin',
      paginated: true,
      response: { schema: runnerSchema },
      input: params({ ...scopeField, ...filterFields }),
      async handler(ctx, input) {
        return runnerPage(ctx, applyFilters(filterByScope(database.from(RunnerEntity, 'r'), input.scope), input));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/runners/:id',
      scopes: MANAGE_RUNNER,
      response: { schema: runnerDetailsSchema },
      input: params({ id: f.id(), include_projects: f.optional(f.boolean(), true) }),
      async handler(ctx, input) {
        const { runner, abilities } = await load(ctx.user, input.id);
        if (!abilities.read) throw noAccess();
        return presenter.details(ctx.user, runner, abilities, ctx.externalUrl, input.include_projects !== false);
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/runners/:id',
      scopes: MANAGE_RUNNER,
      response: { schema: runnerDetailsSchema },
      input: params(
        { id: f.id(), active: f.optional(f.boolean()), ...settingFields },
        rules.atLeastOneOf(...UPDATABLE),
        rules.mutuallyExclusive('active', 'paused'),
      ),
      async handler(ctx, input) {
        const { runner, abilities } = await load(ctx.user, input.id);
        if (!abilities.update) throw noAccess();
        const changes = toSettings(input);
        const stored = {
          runUntagged: runner.runUntagged,
          tags: await store.tagsOf(runner.id),
          maximumTimeout: runner.maximumTimeout ?? null,
          maintenanceNote: runner.maintenanceNote ?? null,
        };
        const errors = runnerErrors(stored, changes);
        if (Object.keys(errors).length > 0) throw validationFailed(errors);
        const updated = await store.update(runner.id, changes);
        return presenter.details(ctx.user, updated, abilities, ctx.externalUrl);
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/runners/:id',
      scopes: MANAGE_RUNNER,
      // 412: changed since `If-Unmodified-Since`.
      response: { status: 204, errors: [412] },
      input: params({ id: f.id() }),
      async handler(ctx, input) {
        const { runner, abilities } = await load(ctx.user, input.id);
        if (!ctx.user.isAdmin) {
          if (abilities.projectIds.length > 1) throw forbidden('Runner associated with more than one project');
          if (!abilities.delete) throw noAccess();
        }
        checkUnmodifiedSince(ctx.header('If-Unmodified-Since'), runner.updatedAt);
        await store.remove([runner.id]);
        return noContent();
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/runners/:id/jobs',
      scopes: MANAGE_RUNNER,
      paginated: true,
      response: { schema: runnerJobSchema },
      input: params({
        id: f.id(),
        system_id: f.optional(f.string()),
        status: f.optional(f.values(CI_STATUSES)),
        order_by: f.optional(f.values(['id'])),
        sort: f.optional(f.values(['asc', 'desc']), 'desc'),
        cursor: f.optional(f.string()),
      }),
      async handler(ctx, input) {
        const { abilities } = await load(ctx.user, input.id);
        if (!abilities.readJobs) throw noAccess();
        // Jobs do not exist yet. As in GitLab, a list narrowed to one manager is not counted.
        return page([], input.system_id ? null : 0);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/runners/:id/reset_authentication_token',
      scopes: MANAGE_RUNNER,
      response: { schema: resetTokenResultSchema },
      input: params({ id: f.id() }),
      async handler(ctx, input) {
        const { runner, abilities } = await load(ctx.user, input.id);
        if (!abilities.update) throw noAccess();
        return reply(201, resetTokenResult(await store.resetToken(runner)));
      },
    }),
  ];
}
