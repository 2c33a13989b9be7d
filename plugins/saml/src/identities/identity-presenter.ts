import type { SamlIdentityRow } from '../entities/saml-identity.js';

/** GitLab's `Entities::IdentityDetail`. */
export const presentIdentity = (row: SamlIdentityRow) => ({ extern_uid: row.externUid, user_id: row.userId });
