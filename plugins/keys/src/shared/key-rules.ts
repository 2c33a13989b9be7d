/**
 * GitLab's validations of a new key (`Key` and `SshKeyValidator`), in its order and words:
 * title, then the key (presence, the instance's type and size restrictions, length, a
 * supported algorithm), then its fingerprint (taken, or none for a key that does not parse),
 * then the expiry.
 */
import { longerThan, tooLongMessage } from '@forgekit/kernel';
import { parsePublicKey, sanitizeKey, SUPPORTED_ALGORITHMS, TECHNOLOGIES, type PublicKey, type Technology } from './public-key.js';

export const TITLE_LIMIT = 255;
export const KEY_LIMIT = 5000;
/** `0`: any size; `-1`: the type is forbidden; otherwise the least size in bits. */
export const FORBIDDEN_KEY_VALUE = -1;

export type KeyRestrictions = Record<Technology, number>;

/** Errors by attribute, in the order they were found, as Rails' `errors` keeps them. */
export class KeyErrors {
  readonly byAttribute: Record<string, string[]> = {};
  add(attribute: string, message: string) {
    (this.byAttribute[attribute] ??= []).push(message);
  }
  get empty() {
    return Object.keys(this.byAttribute).length === 0;
  }
  /** The same errors with each attribute under a prefix (`deploy_key.key`). */
  nestedUnder(prefix: string): Record<string, string[]> {
    return Object.fromEntries(Object.entries(this.byAttribute).map(([attribute, messages]) => [`${prefix}.${attribute}`, messages]));
  }
}

/** `A`, `A or B`, `A, B, or C`: Rails' `to_sentence` with GitLab's exact connectors. */
function exactSentence(words: string[]): string {
  if (words.length <= 1) return words.join('');
  if (words.length === 2) return `${words[0]} or ${words[1]}`;
  return `${words.slice(0, -1).join(', ')}, or ${words.at(-1)}`;
}

export interface CheckedKey {
  /** The text as stored: sanitised. */
  key: string;
  publicKey: PublicKey | null;
  errors: KeyErrors;
}

export interface KeyCandidate {
  title: string;
  key: string;
  expiresAt?: Date | null;
}

/**
 * Every validation of a new key. Whether its fingerprint is `taken` (by any user or deploy
 * key) is the store's answer: the unique index settles it, and the check runs again with it.
 */
export function checkKey(candidate: KeyCandidate, restrictions: KeyRestrictions, options: { taken?: boolean; now?: Date } = {}): CheckedKey {
  const now = options.now ?? new Date();
  const errors = new KeyErrors();
  const key = candidate.key.trim() === '' ? '' : sanitizeKey(candidate.key);
  const publicKey = key === '' ? null : parsePublicKey(key);

  if (candidate.title.trim() === '') errors.add('title', "can't be blank");
  else if (longerThan(candidate.title, TITLE_LIMIT)) errors.add('title', tooLongMessage(TITLE_LIMIT));

  if (key === '') errors.add('key', "can't be blank");
  const restriction = publicKey ? restrictions[publicKey.technology] : FORBIDDEN_KEY_VALUE;
  if (restriction === FORBIDDEN_KEY_VALUE) {
    const allowed = TECHNOLOGIES.filter(({ name }) => restrictions[name] !== FORBIDDEN_KEY_VALUE).map(({ name }) => name.toUpperCase());
    errors.add('key', `type is forbidden. Must be ${exactSentence(allowed)}`);
  } else if (publicKey && restriction > publicKey.bits) {
    errors.add('key', `must be at least ${restriction} bits`);
  }
  if (longerThan(key, KEY_LIMIT)) errors.add('key', tooLongMessage(KEY_LIMIT));
  if (!SUPPORTED_ALGORITHMS.some((algorithm) => key.startsWith(algorithm))) errors.add('key', 'is invalid');

  const usable = publicKey?.valid ? publicKey : null;
  if (usable && options.taken) errors.add('fingerprint_sha256', 'has already been taken');
  if (!usable) errors.add('fingerprint_sha256', 'cannot be generated');
  if (candidate.expiresAt && candidate.expiresAt.getTime() <= now.getTime()) errors.add('key', 'has expired');
  return { key, publicKey: usable, errors };
}
