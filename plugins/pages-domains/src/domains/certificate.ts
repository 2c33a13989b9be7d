/** PEM certificates and keys of Pages domains, checked and described with node:crypto. */
import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { rootCertificates } from 'node:tls';

/** GitLab refuses private keys longer than this (in PEM bytes). */
export const MAX_KEY_BYTES = 8192;

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of a PEM bundle, leaf first; null when any part fails to parse. */
export function parseChain(pem: string): X509Certificate[] | null {
  const blocks = pem.match(PEM_CERTIFICATE);
  if (!blocks) return null;
  try {
    return blocks.map((block) => new X509Certificate(block));
  } catch {
    return null;
  }
}

export function parsePrivateKey(pem: string): KeyObject | null {
  try {
    return createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    return null;
  }
}

const isSelfSigned = (cert: X509Certificate) => cert.checkIssued(cert) && cert.verify(cert.publicKey);
const issuedBy = (cert: X509Certificate, issuer: X509Certificate) => cert.checkIssued(issuer) && cert.verify(issuer.publicKey);

let trustedRoots: X509Certificate[] | undefined;
const roots = () => {
  trustedRoots ??= rootCertificates.map((pem) => new X509Certificate(pem));
  return trustedRoots;
};

/**
 * Whether the bundle is a chain GitLab accepts: each certificate issued by the next one, ending
 * in a self-signed certificate or in one a trusted root issued.
 */
export function chainIsComplete(chain: readonly X509Certificate[]): boolean {
  for (let index = 0; index + 1 < chain.length; index += 1) {
    if (!issuedBy(chain[index]!, chain[index + 1]!)) return false;
  }
  const last = chain[chain.length - 1]!;
  return isSelfSigned(last) || roots().some((root) => issuedBy(last, root));
}

/** Whether the key is an elliptic-curve key on a named curve (or not an EC key at all). */
export function hasNamedCurve(key: KeyObject): boolean {
  return key.asymmetricKeyType !== 'ec' || Boolean(key.asymmetricKeyDetails?.namedCurve);
}

/** `expired` as GitLab computes it: outside the validity window. */
export function isExpired(cert: X509Certificate, now = new Date()): boolean {
  return now < new Date(cert.validFrom) || now > new Date(cert.validTo);
}

/** OpenSSL's one-line name form, `/O=Example, Inc./CN=example.com`. */
export const oneLineName = (name: string) => `/${nameParts(name).join('/')}`;

/** A distinguished name's `key=value` parts; newer Node versions escape special characters such as commas. */
const nameParts = (name: string) =>
  name
    .split('\n')
    .filter(Boolean)
    .map((part) => part.replace(/\\(.)/g, '$1'));

/**
 * A readable account of the certificate, in the layout of `openssl x509 -text`. node:crypto has
 * no text dump, so it lists the fields X509Certificate exposes.
 */
export function certificateText(cert: X509Certificate): string {
  const key = cert.publicKey;
  const bits = key.asymmetricKeyDetails?.modulusLength;
  const curve = key.asymmetricKeyDetails?.namedCurve;
  const lines = [
    'Certificate:',
    '    Data:',
    `        Serial Number: ${cert.serialNumber.toLowerCase()}`,
    `        Issuer: ${nameParts(cert.issuer).join(', ')}`,
    '        Validity',
    `            Not Before: ${cert.validFrom}`,
    `            Not After : ${cert.validTo}`,
    `        Subject: ${nameParts(cert.subject).join(', ')}`,
    '        Subject Public Key Info:',
    `            Public Key Algorithm: ${key.asymmetricKeyType}`,
    ...(bits ? [`                Public-Key: (${bits} bit)`] : []),
    ...(curve ? [`                NIST CURVE: ${curve}`] : []),
  ];
  if (cert.subjectAltName) lines.push('        X509v3 Subject Alternative Name:', `            ${cert.subjectAltName}`);
  lines.push(`    SHA256 Fingerprint=${cert.fingerprint256}`);
  return `${lines.join('\n')}\n`;
}
