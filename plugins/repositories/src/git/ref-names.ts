/** Branch and tag name rules (git's `check-ref-format` plus GitLab's extra refusals), and the bounds of names given to git. */

const FORBIDDEN_PREFIXES = ['refs/heads/', 'refs/remotes/', 'refs/tags/', '-'];

/** GitLab's limit for a ref given to the API (its `git_ref` validator). */
export const MAX_REVISION_LENGTH = 1024;
/** The longest file name most filesystems take, and so the longest part of a ref stored as a file. */
const MAX_REF_PART_BYTES = 255;
/** The longest path git itself handles (PATH_MAX). */
export const MAX_PATH_BYTES = 4096;

/**
 * Whether a branch, tag or commit name could name anything: not empty, within GitLab's
 * ref length, not starting with `-` (git would take it for an option), no control characters.
 */
export function isSafeRevision(value: string): boolean {
  return value.length > 0 && value.length <= MAX_REVISION_LENGTH && !value.startsWith('-') && !/[\x00-\x1f\x7f]/.test(value);
}

/** Whether `refs/heads/<name>` (or tags) would be a valid, unambiguous ref. */
export function isValidRefName(name: string): boolean {
  if (name === '' || name === 'HEAD' || name === '@' || name.length > MAX_REVISION_LENGTH) return false;
  if (FORBIDDEN_PREFIXES.some((prefix) => name.startsWith(prefix))) return false;
  if (name.startsWith('/') || name.endsWith('/') || name.endsWith('.') || name.includes('//')) return false;
  if (name.includes('..') || name.includes('@{') || name.includes('\\')) return false;
  // Control characters, space and the characters git reserves for revision syntax.
  if (/[\x00-\x20\x7f~^:?*[]/.test(name)) return false;
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock') && Buffer.byteLength(part) <= MAX_REF_PART_BYTES);
}

export const ZERO_SHA = '0000000000000000000000000000000000000000';

export const isFullSha = (value: string) => /^[0-9a-f]{40}$/i.test(value);
export const isShaLike = (value: string) => /^[0-9a-f]{7,40}$/i.test(value);

/** The object id of git's empty tree, the base a root commit is compared with. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
