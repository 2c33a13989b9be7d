/**
 * `/projects/:id/cluster_agents/:agent_id/url_configurations` (receptive agents).
 * The whole API answers 404 unless the instance setting enables receptive agents.
 * Developers may read configurations; creating and deleting them needs Maintainer.
 */
import {
  checkUnmodifiedSince,
  created,
  defineRoute,
  f,
  noContent,
  notFound,
  params,
  type HttpMethod,
  type ParamsSchema,
  type RequestContext,
  type Route,
  type RouteResponse,
} from '@forgekit/kernel';
import { AccessLevel, type SettingsService } from '@forgekit/plugin-core/contracts';
import type { AgentLookup } from '../shared/agent-lookup.js';
import { presentUrlConfiguration } from './url-configuration-presenter.js';
import { urlConfigurationSchema } from './url-configuration-schemas.js';
import type { UrlConfigurationService } from './url-configuration-service.js';

export const RECEPTIVE_AGENTS_SETTING = 'receptive_cluster_agents_enabled';

const BASE = '/projects/:id/cluster_agents/:agent_id/url_configurations';

const decodeBase64 = (value: string | null | undefined) => (value === null || value === undefined ? value : Buffer.from(value, 'base64'));

export function urlConfigurationRoutes(configs: UrlConfigurationService, lookup: AgentLookup, settings: SettingsService): Route[] {
  /** A route that exists only while receptive agents are enabled: the setting is checked before the params, as in GitLab. */
  function gated<I>(
    method: HttpMethod,
    path: string,
    declared: ParamsSchema<I>,
    response: RouteResponse,
    handler: (ctx: RequestContext, input: I) => Promise<unknown>,
  ) {
    return defineRoute({
      method,
      path,
      input: declared,
      response,
      async before() {
        if ((await settings.get(RECEPTIVE_AGENTS_SETTING)) !== true) throw notFound();
      },
      handler: (ctx, input) => handler(ctx, input),
    });
  }

  async function agentOf(ctx: RequestContext, agentId: number, minLevel: number) {
    return lookup.agent(await lookup.project(ctx, minLevel), agentId);
  }

  /** The agent's configuration when its id is the one asked for, else `404 Not Found`. */
  async function configurationOf(agentId: number, configurationId: number) {
    const config = await configs.find(agentId);
    if (!config || config.id !== configurationId) throw notFound();
    return config;
  }

  const oneParams = params({ agent_id: f.id(), url_configuration_id: f.id() });

  return [
    gated('GET', BASE, params({ agent_id: f.id() }), { schema: { type: 'array', items: urlConfigurationSchema } }, async (ctx, input) => {
      const agent = await agentOf(ctx, input.agent_id, AccessLevel.DEVELOPER);
      const config = await configs.find(agent.id);
      return config ? [presentUrlConfiguration(config)] : [];
    }),
    gated('GET', `${BASE}/:url_configuration_id`, oneParams, { schema: urlConfigurationSchema }, async (ctx, input) => {
      const agent = await agentOf(ctx, input.agent_id, AccessLevel.DEVELOPER);
      return presentUrlConfiguration(await configurationOf(agent.id, input.url_configuration_id));
    }),
    gated(
      'POST',
      BASE,
      params({
        agent_id: f.id(),
        url: f.string(),
        client_cert: f.optional(f.string()),
        client_key: f.optional(f.string()),
        ca_cert: f.optional(f.string()),
        tls_host: f.optional(f.string()),
      }),
      { schema: urlConfigurationSchema },
      async (ctx, input) => {
        const agent = await agentOf(ctx, input.agent_id, AccessLevel.MAINTAINER);
        const config = await configs.create(
          agent,
          {
            url: input.url,
            caCert: decodeBase64(input.ca_cert),
            clientCert: decodeBase64(input.client_cert),
            clientKey: decodeBase64(input.client_key),
            tlsHost: input.tls_host,
          },
          ctx.user!.id,
        );
        return created(presentUrlConfiguration(config));
      },
    ),
    gated('DELETE', `${BASE}/:url_configuration_id`, oneParams, { status: 204, errors: [412] }, async (ctx, input) => {
      const agent = await agentOf(ctx, input.agent_id, AccessLevel.MAINTAINER);
      const config = await configurationOf(agent.id, input.url_configuration_id);
      checkUnmodifiedSince(ctx.header('If-Unmodified-Since'), config.updatedAt);
      await configs.remove(config.id);
      return noContent();
    }),
  ];
}
