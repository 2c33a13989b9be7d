/**
 * Keeps private key material at rest. With an encryption key configured, values
 * are sealed with AES-256-GCM; without one they are only base64-encoded.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const CIPHER = 'aes-256-gcm';

export interface SecretBox {
  seal(bytes: Buffer): string;
  open(sealed: string): Buffer;
}

export function createSecretBox(encryptionKey: string | undefined): SecretBox {
  const key = encryptionKey ? createHash('sha256').update(encryptionKey).digest() : null;
  return {
    seal(bytes) {
      if (!key) return `plain:${bytes.toString('base64')}`;
      const iv = randomBytes(12);
      const cipher = createCipheriv(CIPHER, key, iv);
      const body = Buffer.concat([cipher.update(bytes), cipher.final()]);
      return [CIPHER, iv, cipher.getAuthTag(), body].map((part) => (typeof part === 'string' ? part : part.toString('base64'))).join(':');
    },
    open(sealed) {
      const [kind, ...parts] = sealed.split(':');
      if (kind === 'plain') return Buffer.from(parts[0] ?? '', 'base64');
      if (kind !== CIPHER || parts.length !== 3) throw new Error('Unrecognised sealed value');
      if (!key) throw new Error('A sealed value needs the cluster-agents encryptionKey to be opened');
      const [iv, tag, body] = parts.map((part) => Buffer.from(part, 'base64')) as [Buffer, Buffer, Buffer];
      const decipher = createDecipheriv(CIPHER, key, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]);
    },
  };
}
