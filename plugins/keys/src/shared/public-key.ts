/**
 * SSH public keys as GitLab reads them (`Gitlab::SSHPublicKey`): the technology, its size,
 * and the MD5 and SHA256 fingerprints. sshpk parses and fingerprints the classic types.
 */
import { createHash } from 'node:crypto';
import sshpk from 'sshpk';

export type Technology = 'rsa' | 'dsa' | 'ecdsa' | 'ed25519' | 'ecdsa_sk' | 'ed25519_sk';

/** The technologies in GitLab's order, with the sizes (bits) it accepts for each. */
export const TECHNOLOGIES: readonly { name: Technology; sizes: readonly number[] }[] = [
  { name: 'rsa', sizes: [1024, 2048, 3072, 4096] },
  { name: 'dsa', sizes: [1024, 2048, 3072] },
  { name: 'ecdsa', sizes: [256, 384, 521] },
  { name: 'ed25519', sizes: [256] },
  { name: 'ecdsa_sk', sizes: [256] },
  { name: 'ed25519_sk', sizes: [256] },
];

/** The algorithm names a key's text may start with. */
export const SUPPORTED_ALGORITHMS = [
  'ssh-rsa',
  'ssh-dss',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'ssh-ed25519',
  'sk-ecdsa-sha2-nistp256@openssh.com',
  'sk-ssh-ed25519@openssh.com',
] as const;

const SSHPK_TECHNOLOGY: Record<string, Technology> = { rsa: 'rsa', dsa: 'dsa', ecdsa: 'ecdsa', ed25519: 'ed25519' };

export interface PublicKey {
  technology: Technology;
  bits: number;
  /** Whether GitLab accepts the key: a size its technology supports. */
  valid: boolean;
  /** `aa:bb:…`, lowercase. */
  md5: string;
  /** Standard base64, unpadded, without the `SHA256:` prefix. */
  sha256: string;
}

/** An SSH wire-format string at `offset`: its bytes and where the next one starts, or null past the end. */
function readString(blob: Buffer, offset: number): { value: Buffer; next: number } | null {
  if (offset + 4 > blob.length) return null;
  const length = blob.readUInt32BE(offset);
  if (offset + 4 + length > blob.length) return null;
  return { value: blob.subarray(offset + 4, offset + 4 + length), next: offset + 4 + length };
}

/**
 * Security-key (FIDO) public keys, which sshpk 1.18 does not parse: their wire format is a
 * few length-prefixed strings (OpenSSH's PROTOCOL.u2f), read here, and their fingerprints are
 * digests of the blob like every other key's.
 */
function parseSecurityKey(type: string, blob: Buffer): { technology: Technology; bits: number } | null {
  const parts: Buffer[] = [];
  let offset = 0;
  while (offset < blob.length) {
    const part = readString(blob, offset);
    if (!part) return null;
    parts.push(part.value);
    offset = part.next;
  }
  if (parts[0]?.toString('latin1') !== type) return null;
  if (type === 'sk-ssh-ed25519@openssh.com') {
    return parts.length === 3 && parts[1]!.length === 32 && parts[2]!.length > 0 ? { technology: 'ed25519_sk', bits: 256 } : null;
  }
  // sk-ecdsa-sha2-nistp256: the curve, an uncompressed P-256 point, the application.
  const point = parts[2];
  const pointOk = point !== undefined && point.length === 65 && point[0] === 4;
  return parts.length === 4 && parts[1]!.toString('latin1') === 'nistp256' && pointOk && parts[3]!.length > 0 ? { technology: 'ecdsa_sk', bits: 256 } : null;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The key a text holds (`type base64 [comment]`), or null when it holds none. */
export function parsePublicKey(text: string): PublicKey | null {
  const [type, data] = text.trim().split(/\s+/);
  if (!type || !data || !BASE64.test(data)) return null;
  const blob = Buffer.from(data, 'base64');
  let technology: Technology;
  let bits: number;
  let md5: string;
  let sha256: string;
  if (type.startsWith('sk-')) {
    const parsed = parseSecurityKey(type, blob);
    if (!parsed) return null;
    ({ technology, bits } = parsed);
    md5 = createHash('md5')
      .update(blob)
      .digest('hex')
      .replace(/(..)(?!$)/g, '$1:');
    sha256 = createHash('sha256').update(blob).digest('base64').replace(/=+$/, '');
  } else {
    let key: sshpk.Key;
    try {
      key = sshpk.parseKey(`${type} ${data}`, 'ssh');
    } catch {
      return null;
    }
    const blobType = readString(blob, 0)?.value.toString('latin1');
    const known = SSHPK_TECHNOLOGY[key.type];
    if (!known || blobType !== type) return null;
    technology = known;
    bits = key.size;
    md5 = key.fingerprint('md5').toString('hex');
    sha256 = key
      .fingerprint('sha256')
      .toString('base64')
      .replace(/^SHA256:/, '');
  }
  const sizes = TECHNOLOGIES.find((candidate) => candidate.name === technology)!.sizes;
  return { technology, bits, valid: sizes.includes(bits), md5, sha256 };
}

/**
 * GitLab's clean-up of a pasted key: the base64 may come split by spaces or line breaks, and
 * only one word of comment is kept after it. A text that never forms a valid key stays as
 * sent, trimmed.
 */
export function sanitizeKey(text: string): string {
  const [type, ...parts] = text.trim().split(/\s+/);
  if (!type || parts.length === 0) return text.trim();
  let blob = '';
  for (const [index, part] of parts.entries()) {
    blob += part;
    if (parsePublicKey(`${type} ${blob}`)?.valid) return [type, blob, parts[index + 1]].filter((word) => word !== undefined).join(' ');
  }
  return text.trim();
}

export type FingerprintQuery = { kind: 'md5'; value: string } | { kind: 'sha256'; value: string };

const MD5_FINGERPRINT = /^([0-9a-f]{2}:){15}[0-9a-f]{2}/i;

/**
 * A fingerprint as `GET /keys?fingerprint=` takes it: `SHA256:` (or `sha256:`) and the base64
 * of 32 bytes, or an MD5 `aa:bb:…`; null when malformed.
 */
export function parseFingerprint(text: string): FingerprintQuery | null {
  const prefixed = /^(SHA256|sha256):/.exec(text);
  if (prefixed) {
    const value = text.slice(prefixed[0].length);
    // Lenient, as Ruby's base64 decoder: the digest is what matters, padding or not.
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || Buffer.from(value, 'base64').length !== 32) return null;
    return { kind: 'sha256', value: value.replace(/=+$/, '') };
  }
  return MD5_FINGERPRINT.test(text) ? { kind: 'md5', value: text } : null;
}
