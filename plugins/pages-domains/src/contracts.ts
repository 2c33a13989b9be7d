/**
 * What other plugins may use of Pages domains: the instance's Pages settings (the one source
 * of the Pages host), the verified domains of projects, and the verification event.
 */
import { createServiceRef, defineEvent } from '@forgekit/kernel';

export interface PagesSettings {
  /** Whether Pages is enabled on the instance; disabled, every Pages domain route answers 404. */
  enabled: boolean;
  /** The host Pages sites are served under (GitLab's `pages.host`), or null when unset. */
  host: string | null;
}

/** Resolves a name's TXT records as GitLab's verification reads them (node:dns's `resolveTxt` shape). */
export type TxtResolver = (name: string) => Promise<string[][]>;

export interface PagesDomainsService {
  settings(): Promise<PagesSettings>;
  /** The verified custom domains (lower case) of these projects. */
  verifiedDomainsOf(projectIds: readonly number[]): Promise<string[]>;
}

export const pagesDomainsRef = createServiceRef<PagesDomainsService>('pages-domains.domains');

export const pagesDomainEvents = {
  /** A domain passed verification for the first time, or again after losing it. */
  verified: defineEvent<{ projectId: number; domain: string }>('pages-domain.verified'),
};
