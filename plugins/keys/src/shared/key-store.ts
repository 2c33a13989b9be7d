/** The `keys` table: user SSH keys and deploy keys, by property. */
import type { Database, Transaction } from '@forgekit/kernel';
import { recordId, unlessTaken } from '@forgekit/kernel/orm';
import { KeyEntity, type KeyKind, type KeyRow } from '../entities/key.js';
import type { FingerprintQuery } from './public-key.js';

export type StoredKey = KeyRow;
export type NewKey = Omit<KeyRow, 'id'>;

export function createKeyStore(database: Database) {
  const ofUser = (userId: number) => database.from(KeyEntity).where({ kind: 'user', userId });
  const page = database.prepareRows((p) => database.from(KeyEntity).where({ kind: 'user', userId: p.userId }).orderBy('id').limit(p.limit).offset(p.offset));
  const byId = database.prepareRows((p) => database.from(KeyEntity).where('id', p.id));

  return {
    listOfUser: (userId: number, limit: number, offset: number): Promise<StoredKey[]> => page.all({ userId, limit, offset }),
    countOfUser: (userId: number) => database.count(ofUser(userId)),

    async findById(id: number, kind?: KeyKind): Promise<StoredKey | undefined> {
      if (recordId(id) === null) return undefined;
      const key = await byId.first({ id });
      return key && (kind === undefined || key.kind === kind) ? key : undefined;
    },

    findOfUser: (userId: number, id: number): Promise<StoredKey | undefined> =>
      recordId(id) === null ? Promise.resolve(undefined) : database.row(ofUser(userId).where('id', id)),

    /** The key (of either kind) with this fingerprint; MD5 compares exactly, as GitLab does. */
    findByFingerprint(fingerprint: FingerprintQuery): Promise<StoredKey | undefined> {
      const query = database.from(KeyEntity);
      if (fingerprint.kind === 'md5') query.where('fingerprint', fingerprint.value);
      else query.where('fingerprintSha256', fingerprint.value);
      return database.row(query.orderBy('id').limit(1));
    },

    /** The deploy key with exactly this (sanitised) text. */
    findDeployKeyByText: (key: string): Promise<StoredKey | undefined> =>
      database.row(database.from(KeyEntity).where({ kind: 'deploy', key }).orderBy('id').limit(1)),

    /** Stores a key; null when its fingerprint is already taken (the unique index decides). */
    async insert(row: NewKey, tx?: Transaction): Promise<StoredKey | null> {
      const id = await unlessTaken(database.insert(KeyEntity, row, { tx }), () => null);
      return id === null ? null : { id, ...row };
    },

    updateTitle: (id: number, title: string) => database.update(KeyEntity, { id }, { title, updatedAt: new Date() }),
    remove: (id: number, tx?: Transaction) => database.delete(KeyEntity, { id }, { tx }),

    /** A user's SSH keys, all of them (to remove them with the user). */
    allOfUser: (userId: number): Promise<StoredKey[]> => database.rows(ofUser(userId).orderBy('id')),
    removeAllOfUser: (userId: number) => database.delete(KeyEntity, { kind: 'user', userId }),
    /** Deploy keys outlive their creator, as GitLab nullifies `user_id`. */
    forgetCreator: (userId: number) => database.update(KeyEntity, { kind: 'deploy', userId }, { userId: null }),

    /** Deploy keys (all, or only public ones), by id, for the instance list. */
    deployKeys: (publicOnly: boolean, limit: number, offset: number): Promise<StoredKey[]> => {
      const query = database.from(KeyEntity).where('kind', 'deploy');
      if (publicOnly) query.where('public', true);
      return database.rows(query.orderBy('id').limit(limit).offset(offset));
    },
    countDeployKeys: (publicOnly: boolean) => {
      const query = database.from(KeyEntity).where('kind', 'deploy');
      if (publicOnly) query.where('public', true);
      return database.count(query);
    },
  };
}

export type KeyStore = ReturnType<typeof createKeyStore>;
