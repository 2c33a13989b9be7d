/** A user's SSH keys: list, read, add (GitLab's validations), remove, and the events they emit. */
import { checkUnmodifiedSince, notFound, type EventBus } from '@forgekit/kernel';
import { keyEvents } from '../contracts.js';
import { userIdOf, usernameOf, type CoreUser } from '../shared/core-fields.js';
import type { KeyCreation, KeyInput } from '../shared/key-creation.js';
import { keyEventOf } from '../shared/key-events.js';
import type { KeyStore, StoredKey } from '../shared/key-store.js';

export function createUserKeyService(store: KeyStore, creation: KeyCreation, events: EventBus) {
  return {
    list: (user: CoreUser, limit: number, offset: number) => store.listOfUser(userIdOf(user), limit, offset),
    count: (user: CoreUser) => store.countOfUser(userIdOf(user)),

    /** One of the user's keys, or `404 Key Not Found`. */
    async find(user: CoreUser, keyId: number): Promise<StoredKey> {
      const key = await store.findOfUser(userIdOf(user), keyId);
      if (!key) throw notFound('Key');
      return key;
    },

    async create(user: CoreUser, input: KeyInput): Promise<StoredKey> {
      const key = await creation.create(input, { kind: 'user', userId: userIdOf(user) }, (row) => store.insert(row));
      await events.emit(keyEvents.keyCreated, keyEventOf(key, usernameOf(user)));
      return key;
    },

    /** Removes a key; a stale `If-Unmodified-Since` answers 412 and keeps it. */
    async remove(user: CoreUser, key: StoredKey, unmodifiedSince?: string) {
      checkUnmodifiedSince(unmodifiedSince, key.updatedAt);
      await store.remove(key.id);
      await events.emit(keyEvents.keyDestroyed, keyEventOf(key, usernameOf(user)));
    },

    /** A deleted user's keys go with them; the deploy keys they made stay, without a creator. */
    async removeAllOf(userId: number) {
      const keys = await store.allOfUser(userId);
      await store.removeAllOfUser(userId);
      await store.forgetCreator(userId);
      for (const key of keys) await events.emit(keyEvents.keyDestroyed, keyEventOf(key, null));
    },
  };
}

export type UserKeyService = ReturnType<typeof createUserKeyService>;
