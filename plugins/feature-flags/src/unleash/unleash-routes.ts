/**
 * The Unleash-compatible API application SDKs call. No user token: the project's
 * instance id (header `UNLEASH-INSTANCEID` or param `instance_id`) is the credential,
 * and the app name (header `UNLEASH-APPNAME` or param `app_name`) is the environment.
 */
import { defineRoute, f, params, reply, unauthorized, type RequestContext, type Route } from '@forgekit/kernel';
import type { FlagStore } from '../flags/flag-store.js';
import type { FeatureFlagsClientService } from '../contracts.js';
import { clientFeatures } from './unleash-features.js';
import { clientFeaturesSchema, placeholderSchema } from './unleash-schemas.js';

const unleashParams = params({ instance_id: f.optional(f.string()), app_name: f.optional(f.string()) });

const BASE = '/feature_flags/unleash/:project_id';

export function unleashRoutes(flags: FlagStore, clients: FeatureFlagsClientService): Route[] {
  /** The project the instance id opens; 401 for a missing or wrong one, or an unknown project. */
  async function authorize(ctx: RequestContext, instanceId: string | null | undefined): Promise<number> {
    const token = ctx.header('UNLEASH-INSTANCEID') ?? instanceId ?? undefined;
    const projectId = ctx.params.project_id!;
    if (!token || !/^\d+$/.test(projectId) || !(await clients.verify(Number(projectId), token))) throw unauthorized();
    return Number(projectId);
  }

  const features = (path: string) =>
    defineRoute({
      method: 'GET',
      path,
      auth: 'none',
      // 401: no instance id, or not the project's.
      response: { schema: clientFeaturesSchema, errors: [401] },
      input: unleashParams,
      async handler(ctx, { instance_id, app_name }) {
        const projectId = await authorize(ctx, instance_id);
        return clientFeatures(flags, projectId, ctx.header('UNLEASH-APPNAME') ?? app_name);
      },
    });

  /** Accepted and ignored, as GitLab does; the body is the bare status GitLab's handler returns. */
  const placeholder = (method: 'GET' | 'POST', path: string) =>
    defineRoute({
      method,
      path,
      auth: 'none',
      response: { status: 200, schema: placeholderSchema, errors: [401] },
      input: unleashParams,
      async handler(ctx, { instance_id }) {
        await authorize(ctx, instance_id);
        return reply(200, 200);
      },
    });

  return [
    placeholder('GET', BASE),
    features(`${BASE}/features`),
    features(`${BASE}/client/features`),
    placeholder('POST', `${BASE}/client/register`),
    placeholder('POST', `${BASE}/client/metrics`),
  ];
}
