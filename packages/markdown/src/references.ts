/** GitLab references in a text: what `findReferences` reports and `renderMarkdown` links. */

export type ReferenceKind = 'issue' | 'merge_request' | 'label' | 'milestone' | 'user' | 'snippet';

export interface Reference {
  kind: ReferenceKind;
  /** The reference as written, e.g. `#12`, `~"to do"`, `@root`: the key of `links`. */
  text: string;
  /** What it names: the iid, the label or milestone name, the username. */
  key: string;
}

/** A resolved reference: where its link points and, optionally, the link's title. */
export interface ReferenceLink {
  href: string;
  title?: string;
}

const KIND_BY_SIGIL: Record<string, ReferenceKind> = {
  '#': 'issue',
  '!': 'merge_request',
  $: 'snippet',
  '~': 'label',
  '%': 'milestone',
  '@': 'user',
};

// A reference starts a word (or follows punctuation that cannot be part of one). Numbers for
// #, ! and $; a quoted or plain name for ~ and %; a username for @ (GitLab's username chars).
const REFERENCE = /(?<![\w&/])(?:([#!$])(\d{1,10})\b|([~%])(?:"([^"\n]+)"|([\w.?&-]*[\w?&-]))|@([A-Za-z0-9_][A-Za-z0-9_.-]*[A-Za-z0-9_-]|[A-Za-z0-9_]))/g;

/** Every reference in one run of plain text, in order. */
export function referencesIn(text: string): Reference[] {
  const found: Reference[] = [];
  for (const match of text.matchAll(REFERENCE)) {
    const [whole, numberSigil, number, nameSigil, quoted, plain, username] = match;
    if (numberSigil) found.push({ kind: KIND_BY_SIGIL[numberSigil]!, text: whole, key: number! });
    else if (nameSigil) found.push({ kind: KIND_BY_SIGIL[nameSigil]!, text: whole, key: (quoted ?? plain)! });
    else found.push({ kind: 'user', text: whole, key: username! });
  }
  return found;
}

/** Splits plain text around the references that have a link. */
export function splitByLinks(text: string, links: ReadonlyMap<string, ReferenceLink>): Array<string | { reference: Reference; link: ReferenceLink }> {
  const parts: Array<string | { reference: Reference; link: ReferenceLink }> = [];
  let last = 0;
  for (const match of text.matchAll(REFERENCE)) {
    const link = links.get(match[0]);
    if (!link) continue;
    const [reference] = referencesIn(match[0]);
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push({ reference: reference!, link });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}
