/**
 * Runner registration tokens of the instance, groups and projects. Only digests are
 * stored: a reset returns the secret once, and a scope has no token until its first reset.
 */
import { generateToken, tokenDigest, type Database } from '@forgekit/kernel';
import { RunnerRegistrationTokenEntity, type RegistrationScope } from '../entities/registration-token.js';

export type { RegistrationScope } from '../entities/registration-token.js';

export const REGISTRATION_TOKEN_PREFIX = 'fkrrt-';

export interface RegistrationTarget {
  scope: RegistrationScope;
  /** The group or project id; 0 for the instance. */
  scopeId: number;
}

export function createRegistrationTokens(database: Database) {
  return {
    /** Replaces the scope's token; the previous one stops working. */
    async reset(target: RegistrationTarget): Promise<string> {
      const secret = generateToken(REGISTRATION_TOKEN_PREFIX, 24);
      await database.transaction(async (tx) => {
        await database.delete(RunnerRegistrationTokenEntity, target, { tx });
        await database.insert(RunnerRegistrationTokenEntity, { ...target, tokenDigest: tokenDigest(secret), createdAt: new Date() }, { tx });
      });
      return secret;
    },
    async resolve(secret: string): Promise<RegistrationTarget | undefined> {
      if (!secret) return undefined;
      const row = await database.row(database.from(RunnerRegistrationTokenEntity).where('tokenDigest', tokenDigest(secret)));
      return row ? { scope: row.scope, scopeId: row.scopeId } : undefined;
    },
    remove: (target: RegistrationTarget) => database.delete(RunnerRegistrationTokenEntity, target),
  };
}

export type RegistrationTokens = ReturnType<typeof createRegistrationTokens>;
