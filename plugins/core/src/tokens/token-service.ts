/** Personal access tokens: stored only as digests; the secret is shown once. */
import { generateToken, tokenDigest, type Database } from '@forgekit/kernel';
import { recordId, type EntityManager } from '@forgekit/kernel/orm';
import { PersonalAccessToken, type TokenRow } from '../entities/personal-access-token.js';
import { ADMIN_ONLY_SCOPES, ALL_SCOPES, TOKEN_PREFIX } from './scopes.js';

export { ADMIN_ONLY_SCOPES, ALL_SCOPES, TOKEN_PREFIX };
export type { TokenRow };

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

const isActive = (row: TokenRow) => !row.revoked && !(row.expires_at && row.expires_at <= new Date().toISOString().slice(0, 10));

export function presentToken(row: TokenRow, secret?: string) {
  const body: Record<string, unknown> = {
    id: row.id,
    name: row.name,
    revoked: row.revoked,
    created_at: row.created_at.toISOString(),
    description: row.description,
    scopes: row.scopes,
    user_id: row.user_id,
    last_used_at: row.last_used_at?.toISOString() ?? null,
    active: isActive(row),
    expires_at: row.expires_at,
  };
  if (secret) body.token = secret;
  return body;
}

export function createTokenService(database: Database) {
  const tokens = () => database.legacy.from(PersonalAccessToken);
  const byId = (id: number, em?: EntityManager): Promise<TokenRow | undefined> => database.legacy.row(PersonalAccessToken, tokens().where('id', id), { em });

  async function create(input: NewToken, em: EntityManager = database.legacy.em()): Promise<{ row: TokenRow; secret: string }> {
    const secret = input.secret ?? generateToken(TOKEN_PREFIX);
    const now = new Date();
    const id = await em.insert(PersonalAccessToken, {
      user_id: input.userId,
      name: input.name,
      description: input.description ?? null,
      token_digest: tokenDigest(secret),
      scopes: [...input.scopes],
      revoked: false,
      expires_at: input.expiresAt ?? null,
      previous_token_id: input.previousTokenId ?? null,
      created_at: now,
      updated_at: now,
    });
    const row = (await byId(id, em === database.legacy.em() ? undefined : em))!;
    return { row, secret };
  }

  return {
    create,
    findById: async (id: number) => (recordId(id) === null ? undefined : byId(id)),
    findByDigest: (digest: string): Promise<TokenRow | undefined> => database.legacy.row(PersonalAccessToken, tokens().where('token_digest', digest)),
    async revoke(id: number) {
      await database.legacy.em().nativeUpdate(PersonalAccessToken, { id }, { revoked: true, updated_at: new Date() });
    },
    /** Records a use of the token. */
    async touch(id: number) {
      await database.legacy.em().nativeUpdate(PersonalAccessToken, { id }, { last_used_at: new Date() });
    },
    /** Revokes the token and issues a successor with the same name and scopes. */
    async rotate(row: TokenRow, expiresAt: string | null) {
      return database.legacy.transaction(async (em) => {
        await em.nativeUpdate(PersonalAccessToken, { id: row.id }, { revoked: true, updated_at: new Date() });
        return create({ userId: row.user_id, name: row.name, description: row.description, scopes: row.scopes, expiresAt, previousTokenId: row.id }, em);
      });
    },
    /** Revokes this token and every token rotated from it (GitLab's token family). */
    async revokeFamily(row: Pick<TokenRow, 'id'>) {
      const family = new Set<number>([row.id]);
      let frontier = [row.id];
      while (frontier.length > 0) {
        const next = await database.legacy.rows(
          PersonalAccessToken,
          database.legacy.table(PersonalAccessToken).whereIn('previous_token_id', frontier).select('id'),
        );
        frontier = next.map((r) => r.id).filter((id) => !family.has(id));
        for (const id of frontier) family.add(id);
      }
      await database.legacy.em().nativeUpdate(PersonalAccessToken, { id: { $in: [...family] } }, { revoked: true, updated_at: new Date() });
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
