/** Key lookup for administrators: a key by id, or any key (user's or deploy) by fingerprint, with its user. */
import { apiError, notFound, recordNotFound } from '@forgekit/kernel';
import type { UserService } from '@forgekit/plugin-core/contracts';
import { recordId } from '@forgekit/kernel/orm';
import type { CoreUser } from '../shared/core-fields.js';
import type { KeyStore, StoredKey } from '../shared/key-store.js';
import { parseFingerprint } from '../shared/public-key.js';

export interface FoundKey {
  key: StoredKey;
  /** The key's user (a deploy key's creator), or null once that user is gone. */
  user: CoreUser | null;
}

export function createLookupService(keys: KeyStore, users: UserService) {
  const withUser = async (key: StoredKey): Promise<FoundKey> => ({ key, user: key.userId ? ((await users.findById(key.userId)) ?? null) : null });

  return {
    /** `404 Not found` for an id no key has (or that is no id at all). */
    async byId(id: string): Promise<FoundKey> {
      const keyId = /^\d+$/.test(id) ? recordId(Number(id)) : null;
      const key = keyId === null ? undefined : await keys.findById(keyId);
      if (!key) throw recordNotFound();
      return withUser(key);
    },

    /** `400 Failed to return the key` for a malformed fingerprint, `404 Key Not Found` for an unknown one. */
    async byFingerprint(text: string): Promise<FoundKey> {
      const fingerprint = parseFingerprint(text);
      if (!fingerprint) throw apiError(400, 'Failed to return the key');
      const key = await keys.findByFingerprint(fingerprint);
      if (!key) throw notFound('Key');
      return withUser(key);
    },
  };
}

export type LookupService = ReturnType<typeof createLookupService>;
