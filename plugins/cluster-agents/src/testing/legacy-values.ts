/** Values as earlier versions of this plugin wrote them, for tests that read them back. */
import { createCipheriv, createHash, randomBytes } from 'node:crypto';

/** Written without `encryptionKey`: only base64-encoded. */
export const legacyPlain = (bytes: Buffer) => `plain:${bytes.toString('base64')}`;

/** Written with `encryptionKey`: AES-256-GCM under its SHA-256. */
export function legacySealed(bytes: Buffer, encryptionKey: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', createHash('sha256').update(encryptionKey).digest(), iv);
  const body = Buffer.concat([cipher.update(bytes), cipher.final()]);
  return ['aes-256-gcm', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
}
