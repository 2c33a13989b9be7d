/**
 * How wiki pages map to files in the wiki repository, as GitLab lays them out: a page is
 * the file `<slug>.<extension>`; its slug is the title with whitespace turned into `-`,
 * and `/` in a title makes directories.
 */

/** The formats a page may be written in, and the extension each is written with. */
export const WIKI_FORMATS = ['markdown', 'rdoc', 'asciidoc', 'org'] as const;
export type WikiFormat = (typeof WIKI_FORMATS)[number];

const WRITTEN_EXTENSION: Record<WikiFormat, string> = { markdown: 'md', rdoc: 'rdoc', asciidoc: 'asciidoc', org: 'org' };

/** Every extension read as a page (files pushed over git may use the longer spellings). */
const READ_EXTENSIONS: Record<string, WikiFormat> = {
  md: 'markdown',
  markdown: 'markdown',
  mdown: 'markdown',
  mkd: 'markdown',
  mkdn: 'markdown',
  rdoc: 'rdoc',
  asciidoc: 'asciidoc',
  adoc: 'asciidoc',
  ad: 'asciidoc',
  org: 'org',
};

/** Bytes a page's own title and each directory name may take (GitLab's limits). */
export const MAX_TITLE_BYTES = 245;
export const MAX_DIRECTORY_BYTES = 255;

export interface PageFile {
  /** The path in the repository. */
  path: string;
  slug: string;
  format: WikiFormat;
}

/** The page a repository file is, or null for other files (attachments, say). */
export function pageFileOf(path: string): PageFile | null {
  const dot = path.lastIndexOf('.');
  if (dot <= path.lastIndexOf('/') + 1) return null;
  const format = READ_EXTENSIONS[path.slice(dot + 1).toLowerCase()];
  return format ? { path, slug: path.slice(0, dot), format } : null;
}

export const pagePathOf = (slug: string, format: WikiFormat) => `${slug}.${WRITTEN_EXTENSION[format]}`;

/** Ruby's `squish`: trimmed, with each run of whitespace made one space. */
const squish = (text: string) => text.trim().replace(/\s+/g, ' ');

/**
 * A title as written: each `/`-separated part squished, empty parts dropped. A leading `/`
 * is kept, so that an update can tell "move to the root" from "stay in the same directory".
 */
export function normalTitle(title: string): string {
  const parts = title.split('/').map(squish).filter(Boolean);
  return (title.trimStart().startsWith('/') ? '/' : '') + parts.join('/');
}

/**
 * The slug a new title gives a page. On update, a title with no directory keeps the page's
 * current directory and a title starting with `/` moves it to the root.
 */
export function slugForTitle(title: string, current?: string): string {
  let path = normalTitle(title);
  if (path.startsWith('/')) path = path.slice(1);
  else if (current !== undefined && !path.includes('/')) path = [directoryOf(current), path].filter(Boolean).join('/');
  return path.replace(/\s/g, '-');
}

export const directoryOf = (slug: string) => slug.slice(0, Math.max(slug.lastIndexOf('/'), 0));

/** The title GitLab reads back for a page: its file's base name, with each run of `-` as a space. */
export const titleOfSlug = (slug: string) => slug.slice(slug.lastIndexOf('/') + 1).replace(/-+/g, ' ');

/** GitLab's length checks on a slug, as validation messages by attribute. */
export function slugProblems(slug: string): Record<string, string[]> | null {
  const parts = slug.split('/');
  const title = parts.pop() ?? '';
  if (Buffer.byteLength(title) > MAX_TITLE_BYTES) return { title: [`exceeds the limit of ${MAX_TITLE_BYTES} bytes`] };
  const long = parts.filter((part) => Buffer.byteLength(part) > MAX_DIRECTORY_BYTES);
  if (long.length > 0) return { title: [`exceeds the limit of ${MAX_DIRECTORY_BYTES} bytes for directory name "${long[0]}"`] };
  return null;
}
