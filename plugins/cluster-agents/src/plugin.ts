import { kernelServices, definePlugin, f } from '@forgekit/kernel';
import { coreAccessRef, coreEvents, coreSettingsRef } from '@forgekit/plugin-core/contracts';
import * as v from 'valibot';
import { agentRoutes } from './agents/agent-routes.js';
import { createAgentService } from './agents/agent-service.js';
import { clusterAgentEntities } from './entities/index.js';
import { init } from './migrations/202611230900-init.js';
import { widenTlsHost } from './migrations/202611241000-widen-tls-host.js';
import { clusterAgentsServiceRef } from './contracts.js';
import { createAgentLookup } from './shared/agent-lookup.js';
import { resealLegacyValues } from './shared/reseal-legacy-values.js';
import { createSecretBox } from './shared/secret-box.js';
import { tokenRoutes } from './tokens/token-routes.js';
import { createTokenService } from './tokens/token-service.js';
import { RECEPTIVE_AGENTS_SETTING, urlConfigurationRoutes } from './url-configurations/url-configuration-routes.js';
import { createUrlConfigurationService } from './url-configurations/url-configuration-service.js';

export const ClusterAgentsConfigSchema = v.object({
  /**
   * Deprecated: keys are sealed with the kernel's secrets key. Still opens values sealed
   * under it by earlier versions until they are re-sealed at start.
   */
  encryptionKey: v.optional(v.pipe(v.string(), v.minLength(32, 'encryptionKey must be at least 32 characters'))),
});

export type ClusterAgentsConfig = v.InferOutput<typeof ClusterAgentsConfigSchema>;

/** Kubernetes cluster agents, their tokens and receptive-agent URL configurations. */
export const clusterAgentsPlugin = definePlugin<ClusterAgentsConfig>({
  id: 'cluster-agents',
  compatibility: '^0.1.0',
  config: ClusterAgentsConfigSchema,
  env: { FORGEKIT_CLUSTER_AGENTS_ENCRYPTION_KEY: 'encryptionKey' },
  entities: clusterAgentEntities,
  migrations: [init, widenTlsHost],
  requires: [coreAccessRef, coreSettingsRef],
  provides: [clusterAgentsServiceRef],
  register(ctx) {
    const database = ctx.resolve(kernelServices.database);
    const settings = ctx.resolve(coreSettingsRef);
    settings.define(ctx.pluginId, RECEPTIVE_AGENTS_SETTING, f.boolean(), false);

    const agents = createAgentService(database);
    const tokens = createTokenService(database);
    const box = createSecretBox(ctx.resolve(kernelServices.secrets), ctx.config.encryptionKey);
    const urlConfigurations = createUrlConfigurationService(database, box);
    const lookup = createAgentLookup(ctx.resolve(coreAccessRef), agents);

    ctx.provide(clusterAgentsServiceRef, { authenticateAgentToken: (secret) => tokens.authenticate(secret) });
    ctx.routes(...agentRoutes(agents, lookup), ...tokenRoutes(tokens, lookup), ...urlConfigurationRoutes(urlConfigurations, lookup, settings));
    ctx.events.on(coreEvents.projectDeleted, async ({ projectId }) => {
      await agents.removeForProject(projectId);
    });
    ctx.lifecycle.onStart(async () => {
      const { resealed, unopened } = await resealLegacyValues(database, box);
      if (resealed > 0) ctx.log.info({ resealed }, 'receptive agent keys from earlier versions re-sealed with the secrets key');
      if (unopened > 0) {
        ctx.log.warn(
          { unopened },
          'receptive agent keys sealed under the deprecated encryptionKey stay unopened until FORGEKIT_CLUSTER_AGENTS_ENCRYPTION_KEY is given',
        );
      } else if (ctx.config.encryptionKey) {
        ctx.log.warn(
          'plugins.cluster-agents.encryptionKey (FORGEKIT_CLUSTER_AGENTS_ENCRYPTION_KEY) is deprecated and no longer needed: every key is sealed with the secrets key',
        );
      }
    });
  },
});
