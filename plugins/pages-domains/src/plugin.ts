import { Resolver } from 'node:dns/promises';
import { kernelServices, definePlugin } from '@forgekit/kernel';
import { coreAccessRef, coreEvents, coreSettingsRef } from '@forgekit/plugin-core/contracts';
import * as v from 'valibot';
import { pagesDomainsRef, type TxtResolver } from './contracts.js';
import { domainRoutes } from './domains/domain-routes.js';
import { createDomainService } from './domains/domain-service.js';
import { createDomainStore } from './domains/domain-store.js';
import { PagesDomainEntity } from './entities/pages-domain.js';
import { init } from './migrations/202611271100-init.js';
import { definePagesSettings, PAGES_HOST } from './settings/pages-settings.js';

/** The background verification of domains: one domain (`{ domainId }`) or every domain due. */
export const VERIFY_JOB = 'pages-domains:verify';

const flag = v.union([
  v.boolean(),
  v.pipe(
    v.picklist(['true', 'false']),
    v.transform((text) => text === 'true'),
  ),
]);

export const PagesDomainsConfigSchema = v.object({
  /** The default of the `pages_enabled` application setting. */
  enabled: v.optional(flag, true),
  /** The default of the `pages_host` application setting: the host Pages sites are served under. */
  host: v.optional(v.pipe(v.string(), v.regex(PAGES_HOST, 'host must be a host name, such as pages.example.com'))),
  /** The DNS server verification asks (`1.2.3.4` or `1.2.3.4:5353`); the system's resolvers when unset. */
  dnsServer: v.optional(v.string()),
});

export type PagesDomainsConfig = v.InferOutput<typeof PagesDomainsConfigSchema>;

export interface PagesDomainsOptions {
  /** Answers TXT lookups instead of DNS (tests). */
  resolveTxt?: TxtResolver;
}

function dnsResolver(server: string | undefined): TxtResolver {
  const resolver = new Resolver({ timeout: 5000, tries: 2 });
  if (server) resolver.setServers([server]);
  return (name) => resolver.resolveTxt(name);
}

/** Pages custom domains: certificates checked with node:crypto, ownership verified by DNS, and the Pages settings. */
export function createPagesDomainsPlugin(options: PagesDomainsOptions = {}) {
  return definePlugin<PagesDomainsConfig>({
    id: 'pages-domains',
    compatibility: '^0.1.0',
    config: PagesDomainsConfigSchema,
    env: { FORGEKIT_PAGES_ENABLED: 'enabled', FORGEKIT_PAGES_HOST: 'host', FORGEKIT_PAGES_DNS_SERVER: 'dnsServer' },
    entities: [PagesDomainEntity],
    migrations: [init],
    requires: [coreAccessRef, coreSettingsRef],
    provides: [pagesDomainsRef],
    register(ctx) {
      const settings = definePagesSettings(ctx.resolve(coreSettingsRef), ctx.pluginId, { enabled: ctx.config.enabled, host: ctx.config.host ?? null });
      const service = createDomainService({
        store: createDomainStore(ctx.resolve(kernelServices.database)),
        settings,
        secrets: ctx.resolve(kernelServices.secrets),
        events: ctx.events,
        resolveTxt: options.resolveTxt ?? dnsResolver(ctx.config.dnsServer),
        scheduleVerification: (domainId) => ctx.jobs.enqueue(VERIFY_JOB, { domainId }, { singletonKey: `pages-domain:${domainId}` }),
      });
      ctx.provide(pagesDomainsRef, { settings: settings.pages, verifiedDomainsOf: service.verifiedDomainsOf });
      ctx.routes(...domainRoutes(service, ctx.resolve(coreAccessRef), settings));
      ctx.jobs.define(VERIFY_JOB, (data: { domainId?: number } | undefined) => service.verifyDue(data?.domainId));
      ctx.events.on(coreEvents.projectDeleted, async ({ projectId }) => {
        await service.removeAllOf(projectId);
      });
    },
  });
}

export const pagesDomainsPlugin = createPagesDomainsPlugin();
