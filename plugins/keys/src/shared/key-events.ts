/** The `key.created` and `key.destroyed` payloads. */
import type { KeyEvent } from '../contracts.js';
import type { KeyRow } from '../entities/key.js';

export function keyEventOf(key: KeyRow, username: string | null): KeyEvent {
  return {
    keyId: key.id,
    kind: key.kind,
    userId: key.userId ?? null,
    username,
    title: key.title,
    key: key.key,
    fingerprint: `SHA256:${key.fingerprintSha256}`,
    createdAt: key.createdAt.toISOString(),
    updatedAt: key.updatedAt.toISOString(),
  };
}
