/** GitLab's path and name rules for namespaces and projects. */

export const PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";
export const NAME_MESSAGE = "can contain only letters, digits, emoji, '_', '.', '+', dashes, or spaces. It must start with a letter, digit, emoji, or '_'.";

const PATH = /^[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*$/;
const SPECIAL = /[_\-.]/;

export function pathError(path: string): string | null {
  if (!PATH.test(path) || /\.(git|atom)$/i.test(path)) return PATH_MESSAGE;
  if (SPECIAL.test(path[0]!) && path[0] !== '_') return PATH_MESSAGE;
  if (/[_\-.]{2,}/.test(path) || /[-.]$/.test(path)) return PATH_MESSAGE;
  return null;
}

const NAME = /^[\p{L}\p{N}\p{Extended_Pictographic}_][\p{L}\p{N}\p{Extended_Pictographic}_.+\- ]*$/u;
export const nameError = (name: string) => (NAME.test(name) ? null : NAME_MESSAGE);

/** Top-level paths the server itself uses. */
export const RESERVED_TOP_LEVEL = new Set([
  '-',
  '.well-known',
  'admin',
  'api',
  'assets',
  'dashboard',
  'explore',
  'groups',
  'help',
  'import',
  'oauth',
  'profile',
  'projects',
  'public',
  'robots.txt',
  'search',
  'sitemap',
  'snippets',
  'uploads',
  'users',
  'v2',
]);

/** A path made from a name: GitLab's `parameterize`-like slug. */
export function pathFromName(name: string): string {
  return (
    name
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9_.-]+/g, '-')
      .replace(/[_\-.]{2,}/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '') || 'project'
  );
}
