/**
 * The endpoints a runner calls with its own tokens in the body (`token`), not a user's:
 * registration, unregistration, verification and authentication token reset.
 */
import {
  checkUnmodifiedSince,
  defineRoute,
  f,
  forbidden,
  noContent,
  params,
  reply,
  rules,
  validationFailed,
  type RequestContext,
  type Route,
} from '@forgekit/kernel';
import { managerErrors } from '../runners/runner-attributes.js';
import { toSettings, settingFields } from '../runners/runner-settings-input.js';
import type { RunnerRow } from '../runners/runner-row.js';
import type { NewRunner } from '../runners/runner-store.js';
import type { RunnerDeps } from '../shared/deps.js';
import { registrationDetails, resetTokenResult } from '../shared/token-results.js';
import { registrationDetailsSchema, resetTokenResultSchema } from '../shared/token-schemas.js';

/** The manager a runner reports when it sends no `system_id`. */
const LEGACY_SYSTEM_XID = '<legacy>';

const infoField = f.optional(
  f.hash({
    name: f.optional(f.string()),
    version: f.optional(f.string()),
    revision: f.optional(f.string()),
    platform: f.optional(f.string()),
    architecture: f.optional(f.string()),
  }),
);

type Info =
  | { name?: string | null; version?: string | null; revision?: string | null; platform?: string | null; architecture?: string | null }
  | null
  | undefined;

export function runnerTokenRoutes(deps: RunnerDeps): Route[] {
  const { store, projects, groups, registrationTokens, createRunner } = deps;

  /** The runner a runner token belongs to, else GitLab's bare 403. */
  async function authenticateRunner(token: string): Promise<RunnerRow> {
    const runner = await store.findByToken(token);
    if (!runner) throw forbidden();
    return runner;
  }

  async function heartbeat(ctx: RequestContext, runner: RunnerRow, systemId: string | null | undefined, info: Info) {
    const systemXid = systemId || LEGACY_SYSTEM_XID;
    const errors = managerErrors({ system_xid: systemXid, ...info });
    if (Object.keys(errors).length > 0) throw validationFailed(errors);
    await store.heartbeat(runner.id, { systemXid, ...(info ?? {}), ipAddress: ctx.ip || null });
  }

  /** What a registration token creates: an instance, group or project runner. */
  async function registrationScope(token: string): Promise<Pick<NewRunner, 'runnerType' | 'groupId' | 'projectId'> | null> {
    const target = await registrationTokens.resolve(token);
    if (!target) return null;
    if (target.scope === 'instance') return { runnerType: 'instance_type' };
    if (target.scope === 'group') return (await groups.findById(target.scopeId)) ? { runnerType: 'group_type', groupId: target.scopeId } : null;
    return (await projects.findById(target.scopeId)) ? { runnerType: 'project_type', projectId: target.scopeId } : null;
  }

  return [
    defineRoute({
      method: 'POST',
      path: '/runners',
      auth: 'none',
      // 403: the token opens no registration.
      response: { schema: registrationDetailsSchema, errors: [403] },
      input: params(
        { token: f.string(), maintainer_note: f.optional(f.string()), info: infoField, active: f.optional(f.boolean()), ...settingFields },
        rules.mutuallyExclusive('maintainer_note', 'maintenance_note'),
        rules.mutuallyExclusive('active', 'paused'),
      ),
      async handler(_ctx, input) {
        const scope = await registrationScope(input.token);
        if (!scope) throw forbidden();
        const settings = toSettings({ ...input, maintenance_note: input.maintenance_note ?? input.maintainer_note });
        if (input.info?.name) settings.name = input.info.name;
        const result = await createRunner({ ...settings, ...scope, registrationType: 'registration_token' });
        if (result.errors) throw validationFailed(result.errors);
        return reply(201, registrationDetails(result.row, result.secret));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/runners',
      auth: 'none',
      // 403: not a runner's token; 412: the runner changed since `If-Unmodified-Since`.
      response: { status: 204, errors: [403, 412] },
      input: params({ token: f.string() }),
      async handler(ctx, input) {
        const runner = await authenticateRunner(input.token);
        checkUnmodifiedSince(ctx.header('If-Unmodified-Since'), runner.updatedAt);
        await store.remove([runner.id]);
        return noContent();
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/runners/verify',
      auth: 'none',
      // 403: not a runner's token.
      response: { status: 200, schema: registrationDetailsSchema, errors: [403] },
      input: params({ token: f.string(), system_id: f.optional(f.string()), info: infoField }),
      async handler(ctx, input) {
        const runner = await authenticateRunner(input.token);
        await heartbeat(ctx, runner, input.system_id, input.info);
        return reply(200, registrationDetails(runner, input.token));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/runners/reset_authentication_token',
      auth: 'none',
      response: { schema: resetTokenResultSchema, errors: [403] },
      input: params({ token: f.string(), system_id: f.optional(f.string()), info: infoField }),
      async handler(ctx, input) {
        const runner = await authenticateRunner(input.token);
        await heartbeat(ctx, runner, input.system_id, input.info);
        return reply(201, resetTokenResult(await store.resetToken(runner)));
      },
    }),
  ];
}
