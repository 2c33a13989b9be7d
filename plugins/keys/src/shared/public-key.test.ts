import { describe, expect, it } from 'vitest';
import { newSecurityKey, newSshKey } from '../testing/test-keys.js';
import { checkKey, type KeyRestrictions } from './key-rules.js';
import { parseFingerprint, parsePublicKey, sanitizeKey } from './public-key.js';

// Fingerprints as `ssh-keygen -l` and `ssh-keygen -l -E md5` print them for these keys.
const RSA =
  'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQDzQ20p3Tox9uQDjvjKw4XBip417dJr50D69KjzncMpnIeyloUoa65Agf7YBxEk7bIual/WHtRCpqley+u8A4ZJfwrx9N5nmzmtoNnhAEpgYfPsn5QJyw4Sura8b0pq70iB509Elw7+dGVQoPrQrbKYyQCxikaY+3teAmyMFZ/sFORqLTBShewq9bX/qUkOkWaObJdRQTiMZhxDlNrZjCt77/vxtndNT0sgVzBb5jBXaVSPLt6SWWp0ABEANqSGTmk4USfPlck/Xvpj+X9NzZTrkT74D65zidCwPpHzRAb96pgk6snhXApIQyxkuPxhFQjcc+joQCpG0z6PL7vl9sPv me@x';
const ED25519 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAOLQ/lfQYLrzZKYsoD5K8Baos+y3v2paK8m0JbP6U2+ root@vm';
const ANY_SIZE: KeyRestrictions = { rsa: 0, dsa: 0, ecdsa: 0, ed25519: 0, ecdsa_sk: 0, ed25519_sk: 0 };

describe('public keys', () => {
  it('gives the fingerprints ssh-keygen gives', () => {
    expect(parsePublicKey(RSA)).toEqual({
      technology: 'rsa',
      bits: 2048,
      valid: true,
      md5: 'f7:14:52:0b:8e:3d:97:b7:0e:5c:a0:92:b0:f1:34:99',
      sha256: 'aW5xKewnFeqrcPAuvAEJGgtx9WY0JWzkxWczspCjRX8',
    });
    expect(parsePublicKey(ED25519)).toMatchObject({
      technology: 'ed25519',
      bits: 256,
      valid: true,
      md5: 'ac:38:89:48:fc:d6:73:84:5d:7c:19:b9:66:32:92:2a',
      sha256: 'YJ36SC1Dxz1LEh6UzlkiT+7hXtP21HxmXTtc7Zaa9k8',
    });
  });

  it('knows every technology GitLab does, with its sizes', () => {
    expect(parsePublicKey(newSshKey('ecdsa', 384))).toMatchObject({ technology: 'ecdsa', bits: 384, valid: true });
    expect(parsePublicKey(newSshKey('ecdsa', 521))).toMatchObject({ technology: 'ecdsa', bits: 521, valid: true });
    expect(parsePublicKey(newSshKey('dsa', 1024))).toMatchObject({ technology: 'dsa', bits: 1024, valid: true });
    expect(parsePublicKey(newSecurityKey())).toMatchObject({ technology: 'ed25519_sk', bits: 256, valid: true });
    expect(parsePublicKey(newSshKey('rsa', 1536))).toMatchObject({ technology: 'rsa', bits: 1536, valid: false });
  });

  it('refuses text that is no key, and a blob of another type than the text says', () => {
    expect(parsePublicKey('ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQ==')).toBeNull();
    expect(parsePublicKey('ssh-rsa not-base64!')).toBeNull();
    expect(parsePublicKey('ssh-rsa')).toBeNull();
    expect(parsePublicKey(`ssh-rsa ${ED25519.split(' ')[1]}`)).toBeNull();
    const [, blob] = newSecurityKey().split(' ');
    expect(parsePublicKey(`sk-ecdsa-sha2-nistp256@openssh.com ${blob}`)).toBeNull();
  });

  it('cleans up a pasted key as GitLab does: joins a split blob, keeps one word of comment', () => {
    const [type, blob] = RSA.split(' ');
    const split = `  ${type} ${blob!.slice(0, 100)}\n${blob!.slice(100)} me@x and more words `;
    expect(sanitizeKey(split)).toBe(`${type} ${blob} me@x`);
    expect(sanitizeKey('  not a key at all ')).toBe('not a key at all');
  });

  it('reads fingerprints as the lookup takes them', () => {
    expect(parseFingerprint('f7:14:52:0b:8e:3d:97:b7:0e:5c:a0:92:b0:f1:34:99')).toEqual({
      kind: 'md5',
      value: 'f7:14:52:0b:8e:3d:97:b7:0e:5c:a0:92:b0:f1:34:99',
    });
    expect(parseFingerprint('SHA256:aW5xKewnFeqrcPAuvAEJGgtx9WY0JWzkxWczspCjRX8')).toEqual({
      kind: 'sha256',
      value: 'aW5xKewnFeqrcPAuvAEJGgtx9WY0JWzkxWczspCjRX8',
    });
    expect(parseFingerprint('sha256:aW5xKewnFeqrcPAuvAEJGgtx9WY0JWzkxWczspCjRX8=')).toEqual({
      kind: 'sha256',
      value: 'aW5xKewnFeqrcPAuvAEJGgtx9WY0JWzkxWczspCjRX8',
    });
    expect(parseFingerprint('SHA256:aW5xKewnFeqrcPAuvAEJGgtx9WY0JWzkxWczspCjRX')).toBeNull();
    expect(parseFingerprint('SHA256:aW5xKewnFeqrcPAuvAEJ gtx9WY0JWzkxWczspCjRX8')).toBeNull();
    expect(parseFingerprint('f7:14:52')).toBeNull();
    expect(parseFingerprint('MD5:f7:14:52:0b:8e:3d:97:b7:0e:5c:a0:92:b0:f1:34:99')).toBeNull();
  });
});

describe('key rules', () => {
  it('passes a good key', () => {
    expect(checkKey({ title: 'laptop', key: RSA }, ANY_SIZE).errors.empty).toBe(true);
  });

  it('reports a key that does not parse in GitLab order and words', () => {
    expect(checkKey({ title: '', key: 'ssh-rsa AAAA' }, ANY_SIZE).errors.byAttribute).toEqual({
      title: ["can't be blank"],
      key: ['type is forbidden. Must be RSA, DSA, ECDSA, ED25519, ECDSA_SK, or ED25519_SK'],
      fingerprint_sha256: ['cannot be generated'],
    });
    expect(checkKey({ title: 't', key: 'hello' }, ANY_SIZE).errors.byAttribute).toEqual({
      key: ['type is forbidden. Must be RSA, DSA, ECDSA, ED25519, ECDSA_SK, or ED25519_SK', 'is invalid'],
      fingerprint_sha256: ['cannot be generated'],
    });
  });

  it('applies the instance restrictions', () => {
    const restricted = { ...ANY_SIZE, rsa: 4096, dsa: -1, ecdsa_sk: -1, ed25519_sk: -1 };
    expect(checkKey({ title: 't', key: RSA }, restricted).errors.byAttribute).toEqual({ key: ['must be at least 4096 bits'] });
    expect(checkKey({ title: 't', key: 'x' }, { ...restricted, ecdsa: -1 }).errors.byAttribute.key![0]).toBe('type is forbidden. Must be RSA or ED25519');
    expect(checkKey({ title: 't', key: 'x' }, { ...restricted, ecdsa: -1, ed25519: -1 }).errors.byAttribute.key![0]).toBe('type is forbidden. Must be RSA');
  });

  it('refuses a key past its expiry, a taken fingerprint, a long title and a long key', () => {
    expect(checkKey({ title: 't', key: RSA, expiresAt: new Date(Date.now() - 1000) }, ANY_SIZE).errors.byAttribute).toEqual({ key: ['has expired'] });
    expect(checkKey({ title: 't', key: RSA }, ANY_SIZE, { taken: true }).errors.byAttribute).toEqual({ fingerprint_sha256: ['has already been taken'] });
    expect(checkKey({ title: 'x'.repeat(256), key: RSA }, ANY_SIZE).errors.byAttribute).toEqual({ title: ['is too long (maximum is 255 characters)'] });
    expect(checkKey({ title: 't', key: `ssh-rsa ${'A'.repeat(5000)}` }, ANY_SIZE).errors.byAttribute.key).toContain('is too long (maximum is 5000 characters)');
  });
});
