/** Registration token resets and `POST /user/runners`, the newer way to create a runner. */
import { badRequest, defineRoute, f, forbidden, frameworkError, params, reply, type Principal, type Route } from '@forgekit/kernel';
import { AccessLevel } from '@forgekit/plugin-core/contracts';
import { fullMessages, toSentence } from '../runners/runner-attributes.js';
import { RUNNER_TYPES, type RunnerType } from '../runners/runner-row.js';
import { settingFields, toSettings } from '../runners/runner-settings-input.js';
import type { NewRunner } from '../runners/runner-store.js';
import type { RunnerDeps } from '../shared/deps.js';
import { registrationDetails, resetTokenResult } from '../shared/token-results.js';
import { registrationDetailsSchema, resetTokenResultSchema } from '../shared/token-schemas.js';
import type { RegistrationTarget } from './registration-tokens.js';

export function registrationRoutes(deps: RunnerDeps): Route[] {
  const { access, projects, groups, registrationTokens, createRunner } = deps;

  const resetFor = async (target: RegistrationTarget) => reply(201, resetTokenResult(await registrationTokens.reset(target)));

  /** The scope a new runner belongs to, after GitLab's checks on it and on the user's rights there. */
  async function creationScope(user: Principal, type: RunnerType, groupId?: number | null, projectId?: number | null): Promise<Partial<NewRunner>> {
    if (type === 'instance_type') {
      if (!user.isAdmin) throw forbidden('Insufficient permissions');
      return {};
    }
    if (type === 'group_type') {
      if (groupId === undefined || groupId === null) throw frameworkError(400, 'group_id is missing');
      const group = await groups.findById(groupId);
      if (!group) throw badRequest('Missing/invalid group');
      if ((await access.groupAccess(user, group)).level < AccessLevel.OWNER) throw forbidden('Insufficient permissions');
      return { groupId: group.id };
    }
    if (projectId === undefined || projectId === null) throw frameworkError(400, 'project_id is missing');
    const project = await projects.findById(projectId);
    if (!project) throw badRequest('Missing/invalid project');
    if ((await access.projectAccess(user, project)).level < AccessLevel.MAINTAINER) throw forbidden('Insufficient permissions');
    return { projectId: project.id };
  }

  return [
    defineRoute({
      method: 'POST',
      path: '/runners/reset_registration_token',
      auth: 'admin',
      response: { schema: resetTokenResultSchema },
      handler: () => resetFor({ scope: 'instance', scopeId: 0 }),
    }),
    defineRoute({
      method: 'POST',
      path: '/projects/:id/runners/reset_registration_token',
      response: { schema: resetTokenResultSchema },
      async handler(ctx) {
        const { project } = await access.requireProject(ctx.user, ctx.params.id, AccessLevel.MAINTAINER);
        return resetFor({ scope: 'project', scopeId: project.id });
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/groups/:id/runners/reset_registration_token',
      response: { schema: resetTokenResultSchema },
      async handler(ctx) {
        const { group } = await access.requireGroup(ctx.user, ctx.params.id, AccessLevel.OWNER);
        return resetFor({ scope: 'group', scopeId: group.id });
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/user/runners',
      scopes: ['create_runner'],
      response: { schema: registrationDetailsSchema },
      input: params({
        runner_type: f.values([...RUNNER_TYPES]),
        group_id: f.optional(f.id()),
        project_id: f.optional(f.id()),
        ...settingFields,
      }),
      async handler(ctx, input) {
        const user = ctx.user;
        const scope = await creationScope(user, input.runner_type, input.group_id, input.project_id);
        const result = await createRunner({
          ...toSettings(input),
          ...scope,
          runnerType: input.runner_type,
          registrationType: 'authenticated_user',
          creatorId: user.id,
        });
        if (result.errors) throw badRequest(toSentence(fullMessages(result.errors)));
        return reply(201, registrationDetails(result.row, result.secret));
      },
    }),
  ];
}
