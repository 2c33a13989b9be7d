/** The kernel's token and user lookup, backed by the core tables: one query per request, none while nothing was committed where the database tells (SQLite). */
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

/** Tokens remembered (see `known` below); past this many, the memo starts again. */
const TOKENS_KEPT = 1024;

/** A presented secret's digest and, while no write has been committed since it was read, its credential. */
interface KnownToken {
  digest: string;
  /** The database's change mark the credential was read under; undefined: read it again. */
  mark?: number;
  credential?: Credential;
  lastUsedAt?: number | null;
  /** When this process last stamped the token's last use: the stamp lands after the request, and later requests need not stamp it again. */
  stampedAt?: number;
}

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
  // overflow (a scan of random secrets) just starts it again. A credential is kept only while
  // the database's change mark stays, so a token revoked, or a user blocked, by any process is
  // refused on the next request; where the database has no mark (PostgreSQL) each request reads.
  const known = new Map<string, KnownToken>();
  function knownToken(secret: string): KnownToken {
    let token = known.get(secret);
    if (token === undefined) {
      if (known.size >= TOKENS_KEPT) known.clear();
      token = { digest: tokenDigest(secret) };
      known.set(secret, token);
    }
    return token;
  }
  /** A copy of the kept credential: callers may keep what they learn on the principal object. */
  const copyOf = (credential: Credential): Credential => ({ ...credential, principal: { ...credential.principal } });
  const touchIfDue = (token: KnownToken, tokenId: number, lastUsedAt: number | null | undefined) => {
    const last = Math.max(lastUsedAt ?? 0, token.stampedAt ?? 0);
    if (last > 0 && Date.now() - last <= LAST_USED_INTERVAL_MS) return;
    token.stampedAt = Date.now();
    // Bookkeeping only: the request does not wait for it.
    tokens.touch(tokenId).catch(() => undefined);
  };
  return {
    async findCredential(secret) {
      const token = knownToken(secret);
      // Read before the row: a write committed while the row is read moves the mark past the one kept.
      const mark = database.changeMark();
      if (mark !== undefined && token.mark === mark && token.credential) {
        touchIfDue(token, token.credential.tokenId, token.lastUsedAt);
        return copyOf(token.credential);
      }
      token.credential = undefined;
      const row = await byDigest.first({ digest: token.digest });
      if (!row) return null;
      // A revoked token presented again may have leaked: its rotated successors stop working too.
      if (row.revoked) await tokens.revokeFamily(row);
      const lastUsedAt = row.lastUsedAt?.getTime() ?? null;
      touchIfDue(token, row.id, lastUsedAt);
      const credential: Credential = {
        tokenId: row.id,
        principal: toPrincipal(row.user!),
        scopes: row.scopes,
        revoked: row.revoked,
        expiresAt: row.expiresAt ?? null,
        mark,
      };
      if (mark !== undefined && !row.revoked) Object.assign(token, { mark, credential: copyOf(credential), lastUsedAt });
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
