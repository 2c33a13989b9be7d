import { createHash, randomBytes } from 'node:crypto';

/** The authenticated caller, as the kernel and plugins see it. */
export interface Principal {
  id: number;
  username: string;
  name: string;
  isAdmin: boolean;
  external: boolean;
  state: string;
}

/** A token presented with a request, as the identity provider found it. */
export interface Credential {
  tokenId: number;
  principal: Principal;
  scopes: readonly string[];
  revoked: boolean;
  /** `YYYY-MM-DD`; the token stops working on that day. */
  expiresAt: string | null;
  /** The database's change mark read before the token was checked (see `requestMark`); none where the database keeps no mark. */
  mark?: number;
}

/**
 * Looks up tokens and users. The kernel runs the auth rules; a plugin (core) owns
 * the records and provides this under `kernelServices.identity`.
 */
export interface IdentityProvider {
  findCredential(secret: string): Promise<Credential | null>;
  /** For `sudo`: a user by numeric id or username (case-insensitive). */
  findUser(idOrUsername: string): Promise<Principal | null>;
  /** Why this user may not use the API (blocked, deactivated), or null. */
  denialReason(principal: Principal): string | null;
}

/** Tokens are stored only as this digest. */
export const tokenDigest = (secret: string) => createHash('sha256').update(secret).digest('hex');

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A new secret with a neutral prefix such as `fkpat-`, 20 random base-62 characters. */
export function generateToken(prefix: string, length = 20): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    const byte = bytes[i]!;
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return prefix + out;
}
