/** The kernel's token and user lookup, backed by the core tables: one query per request. */
import { tokenDigest, type Credential, type Database, type IdentityProvider, type Principal } from '@forgekit/kernel';
import { recordId } from '@forgekit/kernel/orm';
import { PersonalAccessToken } from '../entities/personal-access-token.js';
import { User, type UserRow } from '../entities/user.js';
import type { TokenService } from './token-service.js';

/** GitLab refreshes `last_used_at` at most this often. */
const LAST_USED_INTERVAL_MS = 10 * 60 * 1000;

export function toPrincipal(user: Pick<UserRow, 'id' | 'username' | 'name' | 'admin' | 'external' | 'state'>): Principal {
  return { id: user.id, username: user.username, name: user.name, isAdmin: user.admin, external: user.external, state: user.state };
}

/** The token's owner, read beside the token. */
const OWNER_COLUMNS = ['u.id as u_id', 'u.username as u_username', 'u.name as u_name', 'u.admin as u_admin', 'u.external as u_external', 'u.state as u_state'];

export function createIdentityProvider(database: Database, tokens: TokenService, externalUrl: string): IdentityProvider {
  // Runs on every authenticated request.
  const byDigest = database.legacy.prepareRows(
    PersonalAccessToken,
    (p) => database.legacy.from(PersonalAccessToken, 't').join('users as u', 'u.id', 't.user_id').select(OWNER_COLUMNS).where('t.token_digest', p.digest),
    { joined: { user: { entity: User, prefix: 'u_' } } },
  );
  return {
    async findCredential(secret) {
      const row = await byDigest.first({ digest: tokenDigest(secret) });
      if (!row) return null;
      // A revoked token presented again may have leaked: its rotated successors stop working too.
      if (row.revoked) await tokens.revokeFamily(row);
      if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > LAST_USED_INTERVAL_MS) {
        // Bookkeeping only: the request does not wait for it.
        tokens.touch(row.id).catch(() => undefined);
      }
      const credential: Credential = {
        tokenId: row.id,
        principal: toPrincipal(row.user),
        scopes: row.scopes,
        revoked: row.revoked,
        expiresAt: row.expires_at ?? null,
      };
      return credential;
    },
    async findUser(idOrUsername) {
      const query = database.legacy.from(User);
      const id = /^\d+$/.test(idOrUsername) ? recordId(idOrUsername) : undefined;
      if (id === null) return null;
      const user = await database.legacy.row(User, id ? query.where('id', id) : query.whereRaw('lower(username) = ?', [idOrUsername.toLowerCase()]));
      return user ? toPrincipal(user) : null;
    },
    denialReason(principal) {
      switch (principal.state) {
        case 'blocked':
          return 'Your account has been blocked.';
        case 'blocked_pending_approval':
          return 'Your account is pending approval from your administrator and hence blocked.';
        case 'deactivated':
          return `Your account has been deactivated by your administrator. Please log back in from a web browser to reactivate your account at ${externalUrl}`;
        default:
          return null;
      }
    },
  };
}
