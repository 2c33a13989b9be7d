/** Personal access tokens: stored only as digests; the secret is shown once. */
import { generateToken, tokenDigest } from '@forgekit/kernel';
import { parseJsonArray, recordId, toBool, toDate, toIso, type Knex } from '@forgekit/kernel/orm';
import { ADMIN_ONLY_SCOPES, ALL_SCOPES, TOKEN_PREFIX } from './scopes.js';

export { ADMIN_ONLY_SCOPES, ALL_SCOPES, TOKEN_PREFIX };

export interface TokenRow {
  id: number;
  user_id: number;
  name: string;
  description: string | null;
  token_digest: string;
  scopes: string;
  revoked: unknown;
  expires_at: string | null;
  last_used_at: unknown;
  previous_token_id: number | null;
  created_at: unknown;
  updated_at: unknown;
}

export interface NewToken {
  userId: number;
  name: string;
  scopes: readonly string[];
  description?: string | null;
  expiresAt?: string | null;
  /** Use this secret instead of a random one (the bootstrap root token). */
  secret?: string;
  previousTokenId?: number | null;
}

const isActive = (row: TokenRow) => !toBool(row.revoked) && !(row.expires_at && row.expires_at <= new Date().toISOString().slice(0, 10));

export function presentToken(row: TokenRow, secret?: string) {
  const body: Record<string, unknown> = {
    id: row.id,
    name: row.name,
    revoked: toBool(row.revoked),
    created_at: toIso(row.created_at),
    description: row.description,
    scopes: parseJsonArray(row.scopes),
    user_id: row.user_id,
    last_used_at: toIso(row.last_used_at),
    active: isActive(row),
    expires_at: toDate(row.expires_at),
  };
  if (secret) body.token = secret;
  return body;
}

export function createTokenService(db: Knex) {
  const tokens = () => db<TokenRow>('personal_access_tokens');

  async function create(input: NewToken, trx: Knex = db) {
    const secret = input.secret ?? generateToken(TOKEN_PREFIX);
    const now = new Date();
    const [inserted] = await trx('personal_access_tokens')
      .insert({
        user_id: input.userId,
        name: input.name,
        description: input.description ?? null,
        token_digest: tokenDigest(secret),
        scopes: JSON.stringify(input.scopes),
        revoked: false,
        expires_at: input.expiresAt ?? null,
        previous_token_id: input.previousTokenId ?? null,
        created_at: now,
        updated_at: now,
      })
      .returning('id');
    const id = typeof inserted === 'object' ? inserted.id : inserted;
    const row = (await trx<TokenRow>('personal_access_tokens').where('id', id).first())!;
    return { row, secret };
  }

  return {
    create,
    findById: async (id: number) => (recordId(id) === null ? undefined : tokens().where('id', id).first()),
    findByDigest: (digest: string) => tokens().where('token_digest', digest).first(),
    async revoke(id: number) {
      await tokens()
        .where('id', id)
        .update({ revoked: true, updated_at: new Date() } as never);
    },
    /** Revokes the token and issues a successor with the same name and scopes. */
    async rotate(row: TokenRow, expiresAt: string | null) {
      return db.transaction(async (trx) => {
        await trx('personal_access_tokens').where('id', row.id).update({ revoked: true, updated_at: new Date() });
        return create(
          { userId: row.user_id, name: row.name, description: row.description, scopes: parseJsonArray(row.scopes), expiresAt, previousTokenId: row.id },
          trx,
        );
      });
    },
    /** Revokes this token and every token rotated from it (GitLab's token family). */
    async revokeFamily(row: Pick<TokenRow, 'id'>) {
      const family = new Set<number>([row.id]);
      let frontier = [row.id];
      while (frontier.length > 0) {
        const next: { id: number }[] = await tokens().whereIn('previous_token_id', frontier).select('id');
        frontier = next.map((r) => r.id).filter((id) => !family.has(id));
        for (const id of frontier) family.add(id);
      }
      await tokens()
        .whereIn('id', [...family])
        .update({ revoked: true, updated_at: new Date() } as never);
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
