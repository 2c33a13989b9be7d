/**
 * Secrets at rest: values sealed with AES-256-GCM under the instance's secrets key,
 * with a fresh 96-bit IV each time. Two keys are derived from the configured key text
 * with HKDF, one to seal and one for the key check, so the stored check reveals
 * nothing that opens a value.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/** Sealing and opening secrets a plugin keeps in its tables. */
export interface Secrets {
  /** Seals bytes (or UTF-8 text) as `sealed-v1:<key id>:<iv>:<tag>:<ciphertext>`. */
  seal(value: Buffer | string): string;
  /** Opens a value `seal` made under this key; throws for anything else. */
  open(sealed: string): Buffer;
  /** Whether `value` has the form `seal` gives (under any key). */
  isSealed(value: string): boolean;
}

/** The shortest key text accepted, from the setting or a key file. */
export const MIN_SECRETS_KEY_LENGTH = 32;

const FORMAT = 'sealed-v1';
const CIPHER = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SALT = 'forgekit secrets';

const derive = (keyText: string, purpose: string) => Buffer.from(hkdfSync('sha256', Buffer.from(keyText, 'utf8'), SALT, purpose, 32));

/** A fingerprint of the key, stored in the database so a process with another key is refused at boot. */
export function secretsKeyCheck(keyText: string): string {
  return createHmac('sha256', derive(keyText, 'key check')).update('forgekit secrets key check').digest('hex');
}

/** A fresh key as text: 32 random bytes, base64url. */
export function generateSecretsKey(): string {
  return randomBytes(32).toString('base64url');
}

export function createSecrets(keyText: string): Secrets {
  const key = derive(keyText, 'seal with aes-256-gcm');
  // Names the key in every value, so a value sealed under another key fails with a clear error.
  const keyId = secretsKeyCheck(keyText).slice(0, 12);
  const header = `${FORMAT}:${keyId}`;
  return {
    seal(value) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(CIPHER, key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(header));
      const body = Buffer.concat([cipher.update(typeof value === 'string' ? Buffer.from(value, 'utf8') : value), cipher.final()]);
      return [header, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
    },
    open(sealed) {
      const parts = sealed.split(':');
      if (parts.length !== 5 || parts[0] !== FORMAT) throw new Error('Not a sealed secret');
      if (parts[1] !== keyId) throw new Error(`This secret was sealed under another secrets key (key id ${parts[1]}, this process has ${keyId})`);
      const [iv, tag, body] = parts.slice(2).map((part) => Buffer.from(part, 'base64')) as [Buffer, Buffer, Buffer];
      const decipher = createDecipheriv(CIPHER, key, iv, { authTagLength: TAG_BYTES });
      try {
        decipher.setAAD(Buffer.from(header));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(body), decipher.final()]);
      } catch {
        throw new Error('A sealed secret failed its integrity check');
      }
    },
    isSealed: (value) => value.startsWith(`${FORMAT}:`) && value.split(':').length === 5,
  };
}
