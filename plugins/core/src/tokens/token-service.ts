/** Personal access tokens: stored only as digests; the secret is shown once. */
import { generateToken, tokenDigest, type Database, type Transaction } from '@forgekit/kernel';
import { recordId } from '@forgekit/kernel/orm';
import type { NewToken, PersonalAccessToken, TokenService } from '../contracts.js';
import { PersonalAccessTokenEntity } from '../entities/personal-access-token.js';
import { TOKEN_PREFIX } from './scopes.js';

/** The properties of the domain `PersonalAccessToken`: all but the digest, which never leaves core. */
export const TOKEN_PROPERTIES = [
  'id',
  'userId',
  'name',
  'description',
  'scopes',
  'revoked',
  'expiresAt',
  'lastUsedAt',
  'previousTokenId',
  'createdAt',
  'updatedAt',
] as const;

const isActive = (token: PersonalAccessToken) => !token.revoked && !(token.expiresAt && token.expiresAt <= new Date().toISOString().slice(0, 10));

export function presentToken(token: PersonalAccessToken, secret?: string) {
  const body: Record<string, unknown> = {
    id: token.id,
    name: token.name,
    revoked: token.revoked,
    created_at: token.createdAt.toISOString(),
    description: token.description,
    scopes: token.scopes,
    user_id: token.userId,
    last_used_at: token.lastUsedAt?.toISOString() ?? null,
    active: isActive(token),
    expires_at: token.expiresAt,
  };
  if (secret) body.token = secret;
  return body;
}

/** Tokens, selecting the domain `PersonalAccessToken`: a query to narrow. */
export const tokensQuery = (database: Database) => database.table(PersonalAccessTokenEntity).select(...TOKEN_PROPERTIES);

export function createTokenService(database: Database): TokenService {
  const byId = async (id: number, tx?: Transaction) => (await database.row(tokensQuery(database).where('id', id), { tx })) as PersonalAccessToken | undefined;
  const revoked = () => ({ revoked: true, updatedAt: new Date() });

  async function create(input: NewToken, tx?: Transaction) {
    const secret = input.secret ?? generateToken(TOKEN_PREFIX);
    const now = new Date();
    const id = await database.insert(
      PersonalAccessTokenEntity,
      {
        userId: input.userId,
        name: input.name,
        description: input.description ?? null,
        tokenDigest: tokenDigest(secret),
        scopes: [...input.scopes],
        revoked: false,
        expiresAt: input.expiresAt ?? null,
        previousTokenId: input.previousTokenId ?? null,
        createdAt: now,
        updatedAt: now,
      },
      { tx },
    );
    return { token: (await byId(id, tx))!, secret };
  }

  return {
    create,
    findById: async (id) => (recordId(id) === null ? undefined : byId(id)),
    findByDigest: async (digest) => (await database.row(tokensQuery(database).where('tokenDigest', digest))) as PersonalAccessToken | undefined,
    async revoke(id) {
      await database.update(PersonalAccessTokenEntity, { id }, revoked());
    },
    async touch(id) {
      await database.update(PersonalAccessTokenEntity, { id }, { lastUsedAt: new Date() });
    },
    async rotate(token, expiresAt) {
      return database.transaction(async (tx) => {
        await database.update(PersonalAccessTokenEntity, { id: token.id }, revoked(), { tx });
        const { userId, name, description, scopes } = token;
        return create({ userId, name, description, scopes, expiresAt, previousTokenId: token.id }, tx);
      });
    },
    async revokeFamily(token) {
      const family = new Set<number>([token.id]);
      let frontier = [token.id];
      while (frontier.length > 0) {
        const next = await database.rows(database.table(PersonalAccessTokenEntity).whereIn('previousTokenId', frontier).select('id'));
        frontier = next.map((row) => row.id).filter((id) => !family.has(id));
        for (const id of frontier) family.add(id);
      }
      await database.update(PersonalAccessTokenEntity, { id: { $in: [...family] } }, revoked());
    },
  };
}
