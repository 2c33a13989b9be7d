/**
 * YAML front matter at the top of a page, as GitLab reads it: a `---` line, a YAML mapping,
 * and a closing `---` line. The mapping is the page's `front_matter` (its `title` is the
 * page's title) and the rest is its content. Anything else (another language, a list, bad
 * YAML, an oversized block) is no front matter: the whole text is the content.
 */
import { parse } from 'yaml';
import { MAX_DIRECTORY_BYTES, MAX_TITLE_BYTES } from './page-paths.js';

/** GitLab's bound on the block it parses: a title line and up to 50 slug lines. */
const MAX_FRONT_MATTER_LENGTH = 8 + MAX_TITLE_BYTES + 7 + (4 + MAX_DIRECTORY_BYTES + 1 + MAX_TITLE_BYTES) * 50;

const OPENING = /^\s*---[ \t]*(\S*)[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*(?:\r?\n|$)/m;

export interface ParsedPage {
  frontMatter: Record<string, unknown>;
  content: string;
}

const isMapping = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function parseFrontMatter(text: string): ParsedPage {
  const none = { frontMatter: {}, content: text };
  const opening = OPENING.exec(text);
  if (!opening) return none;
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) return none;
  const block = rest.slice(0, closing.index).trim();
  const language = opening[1]!.toLowerCase() || 'yaml';
  if (language !== 'yaml' || block.length > MAX_FRONT_MATTER_LENGTH) return none;
  let data: unknown;
  try {
    data = parse(block);
  } catch {
    return none;
  }
  return isMapping(data) ? { frontMatter: data, content: rest.slice(closing.index + closing[0].length) } : none;
}
