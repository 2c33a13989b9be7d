/** Fresh SSH public keys for tests, made with node:crypto and written in OpenSSH's form by sshpk. */
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import sshpk from 'sshpk';

export type TestKeyType = 'ed25519' | 'rsa' | 'ecdsa' | 'dsa';

/** `type base64 comment`, a new key every call; `bits` is the RSA/DSA size or the ECDSA curve size. */
export function newSshKey(type: TestKeyType = 'ed25519', bits?: number, comment = 'someone@example.com'): string {
  const pem =
    type === 'ed25519'
      ? generateKeyPairSync('ed25519', { publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } }).publicKey
      : type === 'ecdsa'
        ? generateKeyPairSync('ec', {
            namedCurve: { 256: 'P-256', 384: 'P-384', 521: 'P-521' }[bits ?? 256]!,
            publicKeyEncoding: { type: 'spki', format: 'pem' },
            privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
          }).publicKey
        : type === 'rsa'
          ? generateKeyPairSync('rsa', {
              modulusLength: bits ?? 2048,
              publicKeyEncoding: { type: 'spki', format: 'pem' },
              privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
            }).publicKey
          : generateKeyPairSync('dsa', {
              modulusLength: bits ?? 2048,
              divisorLength: 256,
              publicKeyEncoding: { type: 'spki', format: 'pem' },
              privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
            }).publicKey;
  // sshpk writes `(unnamed)` as the comment; the key is the first two words.
  const [algorithm, blob] = sshpk.parseKey(pem, 'pem').toString('ssh').split(' ');
  return `${algorithm} ${blob} ${comment}`;
}

const sshString = (value: Buffer | string) => {
  const bytes = typeof value === 'string' ? Buffer.from(value) : value;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
};

/** A security-key (`sk-ssh-ed25519@openssh.com`) public key, as a FIDO token would give one. */
export function newSecurityKey(comment = 'token@example.com'): string {
  const type = 'sk-ssh-ed25519@openssh.com';
  const blob = Buffer.concat([sshString(type), sshString(randomBytes(32)), sshString('ssh:')]);
  return `${type} ${blob.toString('base64')} ${comment}`;
}

/** The fingerprints ssh-keygen shows for a key: MD5 `aa:bb:…` and `SHA256:…` (digests of the blob). */
export function fingerprintsOf(key: string) {
  const blob = Buffer.from(key.split(/\s+/)[1]!, 'base64');
  return {
    md5: createHash('md5')
      .update(blob)
      .digest('hex')
      .replace(/(..)(?!$)/g, '$1:'),
    sha256: `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`,
  };
}
