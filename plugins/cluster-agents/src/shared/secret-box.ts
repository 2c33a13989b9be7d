/**
 * Private key material at rest, sealed with the kernel's secrets service. Values
 * written by earlier versions still open: `plain:` (only base64-encoded) and
 * `aes-256-gcm:` (sealed under the deprecated `encryptionKey` setting, which must
 * then still be given). `resealLegacyValues` moves both to the kernel's sealing.
 */
import { createDecipheriv, createHash } from 'node:crypto';
import type { Secrets } from '@forgekit/kernel';

const LEGACY_CIPHER = 'aes-256-gcm';
/** How values written before the kernel's secrets service begin. */
export const LEGACY_PREFIXES = ['plain:', `${LEGACY_CIPHER}:`] as const;

export interface SecretBox {
  seal(bytes: Buffer): string;
  open(sealed: string): Buffer;
}

export function createSecretBox(secrets: Secrets, legacyEncryptionKey: string | undefined): SecretBox {
  const legacyKey = legacyEncryptionKey ? createHash('sha256').update(legacyEncryptionKey).digest() : null;
  return {
    seal: (bytes) => secrets.seal(bytes),
    open(sealed) {
      if (secrets.isSealed(sealed)) return secrets.open(sealed);
      const [kind, ...parts] = sealed.split(':');
      if (kind === 'plain') return Buffer.from(parts[0] ?? '', 'base64');
      if (kind !== LEGACY_CIPHER || parts.length !== 3) throw new Error('Unrecognised sealed value');
      if (!legacyKey) throw new Error('This value was sealed under the deprecated cluster-agents encryptionKey, which is needed to open it');
      const [iv, tag, body] = parts.map((part) => Buffer.from(part, 'base64')) as [Buffer, Buffer, Buffer];
      const decipher = createDecipheriv(LEGACY_CIPHER, legacyKey, iv, { authTagLength: 16 });
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]);
    },
  };
}
