/**
 * The settings `PUT /groups/:id/saml_provider` and `forgekit saml-provider set` take: one
 * declaration, so the REST extension and the command line accept and refuse the same values.
 */
import { f, params } from '@forgekit/kernel';
import { AccessLevel } from '@forgekit/plugin-core/contracts';
import type { ProviderSettings } from './provider-store.js';

/** The levels a SAML sign-in may give by default: any member level below Owner. */
const DEFAULT_ROLES = [AccessLevel.GUEST, AccessLevel.PLANNER, AccessLevel.REPORTER, AccessLevel.DEVELOPER, AccessLevel.MAINTAINER] as number[];

export const providerParams = params({
  enabled: f.optional(f.boolean()),
  sso_url: f.optional(f.string()),
  certificate_fingerprint: f.optional(f.string()),
  default_membership_role: f.optional(f.values(DEFAULT_ROLES, f.integer())),
});

type ProviderInput = { enabled?: boolean | null; sso_url?: string | null; certificate_fingerprint?: string | null; default_membership_role?: number | null };

/** The settings the input names; those not given change nothing. */
export function settingsOf(input: ProviderInput): Partial<ProviderSettings> {
  return {
    ...(input.enabled != null ? { enabled: input.enabled } : {}),
    ...(input.sso_url != null ? { ssoUrl: input.sso_url } : {}),
    ...(input.certificate_fingerprint != null ? { certificateFingerprint: input.certificate_fingerprint } : {}),
    ...(input.default_membership_role != null ? { defaultMembershipRole: input.default_membership_role } : {}),
  };
}
