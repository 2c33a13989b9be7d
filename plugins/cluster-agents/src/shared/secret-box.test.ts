import { describe, expect, it } from 'vitest';
import { createSecretBox } from './secret-box.js';

describe('secret box', () => {
  const secret = Buffer.from('private key material');

  it('seals with AES-256-GCM when a key is configured and opens the value again', () => {
    const box = createSecretBox('k'.repeat(32));
    const sealed = box.seal(secret);
    expect(sealed).toMatch(/^aes-256-gcm:/);
    expect(sealed).not.toContain(secret.toString('base64'));
    expect(box.open(sealed)).toEqual(secret);
  });

  it('refuses a value sealed with another key', () => {
    const sealed = createSecretBox('a'.repeat(32)).seal(secret);
    expect(() => createSecretBox('b'.repeat(32)).open(sealed)).toThrow();
    expect(() => createSecretBox(undefined).open(sealed)).toThrow('encryptionKey');
  });

  it('only encodes without a key, and such values still open once a key is configured', () => {
    const sealed = createSecretBox(undefined).seal(secret);
    expect(sealed).toBe(`plain:${secret.toString('base64')}`);
    expect(createSecretBox('k'.repeat(32)).open(sealed)).toEqual(secret);
  });
});
