import { createSecrets, generateSecretsKey } from '@forgekit/kernel';
import { describe, expect, it } from 'vitest';
import { legacyPlain, legacySealed } from '../testing/legacy-values.js';
import { createSecretBox } from './secret-box.js';

describe('secret box', () => {
  const secret = Buffer.from('private key material');
  const secrets = createSecrets(generateSecretsKey());
  const legacyKey = 'k'.repeat(32);

  it('seals with the kernel secrets service, never as the plaintext or its base64', () => {
    const sealed = createSecretBox(secrets, undefined).seal(secret);
    expect(secrets.isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain(secret.toString());
    expect(sealed).not.toContain(secret.toString('base64'));
    expect(createSecretBox(secrets, legacyKey).open(sealed)).toEqual(secret);
  });

  it('still opens values written only base64-encoded by earlier versions', () => {
    expect(createSecretBox(secrets, undefined).open(legacyPlain(secret))).toEqual(secret);
  });

  it('opens values sealed under the deprecated encryptionKey while it is given, and names it when it is not', () => {
    const sealed = legacySealed(secret, legacyKey);
    expect(createSecretBox(secrets, legacyKey).open(sealed)).toEqual(secret);
    expect(() => createSecretBox(secrets, 'b'.repeat(32)).open(sealed)).toThrow();
    expect(() => createSecretBox(secrets, undefined).open(sealed)).toThrow('encryptionKey');
  });

  it('refuses what it does not recognise', () => {
    expect(() => createSecretBox(secrets, undefined).open('rot13:abc')).toThrow('Unrecognised sealed value');
  });
});
