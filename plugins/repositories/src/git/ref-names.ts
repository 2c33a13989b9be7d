/** Branch and tag name rules: git's `check-ref-format` plus GitLab's extra refusals. */

const FORBIDDEN_PREFIXES = ['refs/heads/', 'refs/remotes/', 'refs/tags/', '-'];

/** Whether `refs/heads/<name>` (or tags) would be a valid, unambiguous ref. */
export function isValidRefName(name: string): boolean {
  if (name === '' || name === 'HEAD' || name === '@') return false;
  if (FORBIDDEN_PREFIXES.some((prefix) => name.startsWith(prefix))) return false;
  if (name.startsWith('/') || name.endsWith('/') || name.endsWith('.') || name.includes('//')) return false;
  if (name.includes('..') || name.includes('@{') || name.includes('\\')) return false;
  // Control characters, space and the characters git reserves for revision syntax.
  if (/[\x00-\x20\x7f~^:?*[]/.test(name)) return false;
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
}

export const ZERO_SHA = '0000000000000000000000000000000000000000';

export const isFullSha = (value: string) => /^[0-9a-f]{40}$/i.test(value);
export const isShaLike = (value: string) => /^[0-9a-f]{7,40}$/i.test(value);

/** The object id of git's empty tree, the base a root commit is compared with. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
