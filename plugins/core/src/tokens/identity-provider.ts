/** The kernel's token and user lookup, backed by the core tables: one query per request. */
import { tokenDigest, type Credential, type Database, type IdentityProvider, type Principal } from '@forgekit/kernel';
import { parseJsonArray, recordId, toBool, toIso } from '@forgekit/kernel/orm';
import type { UserRow } from '../shared/rows.js';
import type { TokenService } from './token-service.js';

/** GitLab refreshes `last_used_at` at most this often. */
const LAST_USED_INTERVAL_MS = 10 * 60 * 1000;

export function toPrincipal(user: Pick<UserRow, 'id' | 'username' | 'name' | 'admin' | 'external' | 'state'>): Principal {
  return { id: user.id, username: user.username, name: user.name, isAdmin: toBool(user.admin), external: toBool(user.external), state: user.state };
}

interface CredentialRow {
  id: number;
  scopes: string;
  revoked: unknown;
  expires_at: string | null;
  last_used_at: unknown;
  user_id: number;
  username: string;
  name: string;
  admin: unknown;
  external: unknown;
  state: string;
}

export function createIdentityProvider(database: Database, tokens: TokenService, externalUrl: string): IdentityProvider {
  const db = database.knex;
  // Runs on every authenticated request.
  const byDigest = database.prepare<CredentialRow>(
    'select t.id, t.scopes, t.revoked, t.expires_at, t.last_used_at, u.id as user_id, u.username, u.name, u.admin, u.external, u.state ' +
      'from personal_access_tokens t join users u on u.id = t.user_id where t.token_digest = ?',
  );
  return {
    async findCredential(secret) {
      const row = await byDigest.first([tokenDigest(secret)]);
      if (!row) return null;
      // A revoked token presented again may have leaked: its rotated successors stop working too.
      if (toBool(row.revoked)) await tokens.revokeFamily(row);
      const lastUsed = toIso(row.last_used_at);
      if (!lastUsed || Date.now() - Date.parse(lastUsed) > LAST_USED_INTERVAL_MS) {
        // Bookkeeping only: the request does not wait for it.
        db('personal_access_tokens')
          .where('id', row.id)
          .update({ last_used_at: new Date() })
          .catch(() => undefined);
      }
      const credential: Credential = {
        tokenId: row.id,
        principal: toPrincipal({ ...row, id: row.user_id }),
        scopes: parseJsonArray(row.scopes),
        revoked: toBool(row.revoked),
        expiresAt: row.expires_at ?? null,
      };
      return credential;
    },
    async findUser(idOrUsername) {
      const query = db<UserRow>('users');
      const id = /^\d+$/.test(idOrUsername) ? recordId(idOrUsername) : undefined;
      if (id === null) return null;
      const user = id ? await query.where('id', id).first() : await query.whereRaw('lower(username) = ?', [idOrUsername.toLowerCase()]).first();
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
