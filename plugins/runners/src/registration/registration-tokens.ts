/**
 * Runner registration tokens of the instance, groups and projects. Only digests are
 * stored: a reset returns the secret once, and a scope has no token until its first reset.
 */
import { generateToken, tokenDigest } from '@forgekit/kernel';
import type { Knex } from '@forgekit/kernel/orm';

export const REGISTRATION_TOKEN_PREFIX = 'fkrrt-';

export type RegistrationScope = 'instance' | 'group' | 'project';

export interface RegistrationTarget {
  scope: RegistrationScope;
  /** The group or project id; 0 for the instance. */
  scopeId: number;
}

export function createRegistrationTokens(db: Knex) {
  return {
    /** Replaces the scope's token; the previous one stops working. */
    async reset(target: RegistrationTarget): Promise<string> {
      const secret = generateToken(REGISTRATION_TOKEN_PREFIX, 24);
      await db.transaction(async (trx) => {
        await trx('ci_runner_registration_tokens').where({ scope: target.scope, scope_id: target.scopeId }).delete();
        await trx('ci_runner_registration_tokens').insert({
          scope: target.scope,
          scope_id: target.scopeId,
          token_digest: tokenDigest(secret),
          created_at: new Date(),
        });
      });
      return secret;
    },
    async resolve(secret: string): Promise<RegistrationTarget | undefined> {
      if (!secret) return undefined;
      const row: { scope: RegistrationScope; scope_id: number } | undefined = await db('ci_runner_registration_tokens')
        .where('token_digest', tokenDigest(secret))
        .first('scope', 'scope_id');
      return row ? { scope: row.scope, scopeId: row.scope_id } : undefined;
    },
    async remove(target: RegistrationTarget) {
      await db('ci_runner_registration_tokens').where({ scope: target.scope, scope_id: target.scopeId }).delete();
    },
  };
}

export type RegistrationTokens = ReturnType<typeof createRegistrationTokens>;
