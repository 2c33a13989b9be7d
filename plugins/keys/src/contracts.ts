/**
 * What other plugins may use of SSH and deploy keys: the events a key's life emits (GitLab's
 * `key_create` and `key_destroy` system hooks carry the same facts).
 */
import { defineEvent } from '@forgekit/kernel';

export interface KeyEvent {
  keyId: number;
  /** A user's SSH key, or a deploy key. */
  kind: 'user' | 'deploy';
  /** The key's user (a deploy key's creator); null once that user is gone. */
  userId: number | null;
  username: string | null;
  title: string;
  /** The public key as stored. */
  key: string;
  /** SHA256 fingerprint, `SHA256:…`. */
  fingerprint: string;
  createdAt: string;
  updatedAt: string;
}

export const keyEvents = {
  keyCreated: defineEvent<KeyEvent>('key.created'),
  keyDestroyed: defineEvent<KeyEvent>('key.destroyed'),
};
