/** The kernel's token and user lookup, backed by the core tables: one query per request. */
import { tokenDigest, type Credential, type Database, type IdentityProvider, type Principal } from '@forgekit/kernel';
import { recordId } from '@forgekit/kernel/orm';
import type { TokenService, User } from '../contracts.js';
import { PersonalAccessTokenEntity } from '../entities/personal-access-token.js';
import { UserEntity } from '../entities/user.js';
import { usersQuery } from '../users/user-query.js';
import { TOKEN_PROPERTIES } from './token-service.js';

/** GitLab refreshes `last_used_at` at most this often. */
const LAST_USED_INTERVAL_MS = 10 * 60 * 1000;

/** What a principal is made of. */
const PRINCIPAL_PROPERTIES = ['id', 'username', 'name', 'admin', 'external', 'state'] as const;

export function toPrincipal(user: Pick<User, (typeof PRINCIPAL_PROPERTIES)[number]>): Principal {
  return { id: user.id, username: user.username, name: user.name, isAdmin: user.admin, external: user.external, state: user.state };
}

/** Secrets remembered with their digest, so a client sending its token again is not hashed again. */
const DIGESTS_KEPT = 1024;

export function createIdentityProvider(database: Database, tokens: TokenService, externalUrl: string): IdentityProvider {
  // The token with its owner: runs on every authenticated request.
  const byDigest = database.prepareRows((p) =>
    database
      .table(PersonalAccessTokenEntity, 't')
      .select(...TOKEN_PROPERTIES)
      .join(UserEntity, 'u', 'u.id', 't.userId')
      .nest('user', 'u', PRINCIPAL_PROPERTIES)
      .where('t.tokenDigest', p.digest),
  );
  // A small memo rather than an LRU: the few tokens of a server's regular callers fit, and an
  // overflow (a scan of random secrets) just starts it again.
  const digests = new Map<string, string>();
  const digestOf = (secret: string) => {
    let digest = digests.get(secret);
    if (digest === undefined) {
      if (digests.size >= DIGESTS_KEPT) digests.clear();
      digest = tokenDigest(secret);
      digests.set(secret, digest);
    }
    return digest;
  };
  return {
    async findCredential(secret) {
      const row = await byDigest.first({ digest: digestOf(secret) });
      if (!row) return null;
      // A revoked token presented again may have leaked: its rotated successors stop working too.
      if (row.revoked) await tokens.revokeFamily(row);
      if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > LAST_USED_INTERVAL_MS) {
        // Bookkeeping only: the request does not wait for it.
        tokens.touch(row.id).catch(() => undefined);
      }
      const credential: Credential = {
        tokenId: row.id,
        principal: toPrincipal(row.user!),
        scopes: row.scopes,
        revoked: row.revoked,
        expiresAt: row.expiresAt ?? null,
      };
      return credential;
    },
    async findUser(idOrUsername) {
      const query = usersQuery(database);
      const id = /^\d+$/.test(idOrUsername) ? recordId(idOrUsername) : undefined;
      if (id === null) return null;
      const user = await database.row(id ? query.where('id', id) : query.whereIgnoringCase('username', idOrUsername));
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
