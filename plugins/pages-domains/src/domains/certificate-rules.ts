/** GitLab's validations of a domain's certificate and key, with its attribute names and texts. */
import { chainIsComplete, hasNamedCurve, MAX_KEY_BYTES, parseChain, parsePrivateKey } from './certificate.js';

export type Errors = Record<string, string[]>;

export const addError = (errors: Errors, attribute: string, message: string) => {
  (errors[attribute] ??= []).push(message);
};

/** The errors of a certificate and key pair for `domain`; an expired certificate is accepted, as GitLab does. */
export function certificateErrors(domain: string, certificate: string | null, key: string | null, errors: Errors = {}): Errors {
  const chain = certificate ? parseChain(certificate) : null;
  if (certificate && !chain) addError(errors, 'certificate', 'must be a valid PEM certificate');
  let privateKey = null;
  if (key) {
    if (Buffer.byteLength(key) > MAX_KEY_BYTES) addError(errors, 'key', `Certificate Key is too long. (Max ${MAX_KEY_BYTES} bytes)`);
    else {
      privateKey = parsePrivateKey(key);
      if (!privateKey) addError(errors, 'key', 'must be a valid PEM private key');
      else if (!hasNamedCurve(privateKey)) addError(errors, 'key', 'must use a named curve');
    }
  }
  if (Boolean(certificate) !== Boolean(key) || (chain && privateKey && !chain[0]!.checkPrivateKey(privateKey))) {
    addError(errors, 'key', "doesn't match the certificate");
  }
  if (chain) {
    if (!chainIsComplete(chain)) addError(errors, 'certificate', 'misses intermediates');
    if (!chain[0]!.checkHost(domain, { wildcards: true, subject: 'default' })) addError(errors, 'certificate', `does not cover the domain ${domain}`);
  }
  return errors;
}
