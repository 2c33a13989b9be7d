/** The instance settings for Pages, kept with core's application settings. */
import { f } from '@forgekit/kernel';
import type { SettingsService } from '@forgekit/plugin-core/contracts';
import * as v from 'valibot';
import type { PagesSettings } from '../contracts.js';

/** A host name, with a port if any: what GitLab's `pages.host` holds. */
export const PAGES_HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export const SETTINGS = {
  enabled: 'pages_enabled',
  host: 'pages_host',
  /** Defined by core with GitLab's other Pages settings. */
  verification: 'pages_domain_verification_enabled',
  maxDomains: 'max_pages_custom_domains_per_project',
} as const;

const hostField = v.pipe(
  f.string(),
  v.check((host) => host === '' || PAGES_HOST.test(host), 'is not a host name'),
);

export interface PagesDefaults {
  enabled: boolean;
  host: string | null;
}

export function definePagesSettings(settings: SettingsService, owner: string, defaults: PagesDefaults) {
  settings.define(owner, SETTINGS.enabled, f.boolean(), defaults.enabled);
  settings.define(owner, SETTINGS.host, hostField, defaults.host ?? '');
  settings.define(owner, SETTINGS.maxDomains, f.integer({ min: 0, max: 2_147_483_647 }), 0);

  return {
    async pages(): Promise<PagesSettings> {
      const [enabled, host] = await Promise.all([settings.get(SETTINGS.enabled), settings.get(SETTINGS.host)]);
      return { enabled: enabled === true, host: typeof host === 'string' && host !== '' ? host.toLowerCase() : null };
    },
    verificationEnabled: async () => (await settings.get(SETTINGS.verification)) !== false,
    maxDomainsPerProject: async () => Number(await settings.get(SETTINGS.maxDomains)) || 0,
  };
}

export type PagesSettingsReader = ReturnType<typeof definePagesSettings>;
