/** Keys and certificates of receptive agents. */
import { createPrivateKey, generateKeyPairSync, X509Certificate, type PrivateKeyInput } from 'node:crypto';

const ED25519_KEY_BYTES = 32;

/** A new Ed25519 key pair as raw bytes: the 32-byte public key and the 32-byte private seed. */
export function generateAgentKeyPair() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKey: publicKey.export({ format: 'der', type: 'spki' }).subarray(-ED25519_KEY_BYTES),
    privateKey: privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(-ED25519_KEY_BYTES),
  };
}

/** An X.509 certificate in PEM or DER. */
export function isCertificate(bytes: Buffer | null): boolean {
  if (!bytes) return false;
  try {
    new X509Certificate(bytes);
    return true;
  } catch {
    return false;
  }
}

/** An unencrypted private key in PEM or DER (PKCS#8, PKCS#1 or SEC1). */
export function isPrivateKey(bytes: Buffer | null): boolean {
  if (!bytes) return false;
  const forms: PrivateKeyInput[] = [
    { key: bytes, format: 'pem' },
    { key: bytes, format: 'der', type: 'pkcs8' },
    { key: bytes, format: 'der', type: 'pkcs1' },
    { key: bytes, format: 'der', type: 'sec1' },
  ];
  return forms.some((form) => {
    try {
      createPrivateKey(form);
      return true;
    } catch {
      return false;
    }
  });
}
