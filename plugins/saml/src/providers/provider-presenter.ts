import type { SamlProviderRow } from '../entities/saml-provider.js';

export const presentProvider = (row: SamlProviderRow) => ({
  id: row.id,
  group_id: row.groupId,
  enabled: row.enabled,
  sso_url: row.ssoUrl,
  certificate_fingerprint: row.certificateFingerprint,
  default_membership_role: row.defaultMembershipRole,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});
