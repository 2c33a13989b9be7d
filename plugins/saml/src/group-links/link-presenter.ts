import type { SamlGroupLinkRow } from '../entities/saml-group-link.js';

/** GitLab's `EE::API::Entities::SamlGroupLink`. */
export const presentLink = (row: SamlGroupLinkRow) => ({
  name: row.name,
  access_level: row.accessLevel,
  member_role_id: row.memberRoleId ?? null,
  provider: row.provider ?? null,
});
