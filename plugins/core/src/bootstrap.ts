/** The first administrator: `root`, with a token equal to the configured secret. */
import { tokenDigest } from '@forgekit/kernel';
import type { TokenService, User, UserService } from './contracts.js';
import { ALL_SCOPES } from './tokens/scopes.js';

export const ROOT_USERNAME = 'root';

export async function ensureRootUser(users: UserService): Promise<User> {
  const existing = await users.findByUsername(ROOT_USERNAME);
  if (existing) return existing;
  try {
    return await users.create({ username: ROOT_USERNAME, name: 'Administrator', email: 'admin@example.com', admin: true });
  } catch (error) {
    // Another server process created it at the same moment.
    const raced = await users.findByUsername(ROOT_USERNAME);
    if (raced) return raced;
    throw error;
  }
}

/** Makes `secret` a working all-scope token of root; returns whether it was new. */
export async function ensureRootToken(users: UserService, tokens: TokenService, secret: string, name = 'bootstrap'): Promise<boolean> {
  const root = await ensureRootUser(users);
  const existing = await tokens.findByDigest(tokenDigest(secret));
  if (existing) {
    if (existing.userId !== root.id) throw new Error('The root token is already in use by another user');
    return false;
  }
  try {
    await tokens.create({ userId: root.id, name, scopes: [...ALL_SCOPES], secret });
    return true;
  } catch (error) {
    if (await tokens.findByDigest(tokenDigest(secret))) return false;
    throw error;
  }
}
