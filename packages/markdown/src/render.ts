import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import { type Reference, type ReferenceLink, referencesIn, splitByLinks } from './references.js';

export interface RenderOptions {
  /** Resolved references, keyed by their text (`#12`, `@root`); others stay text. */
  links?: ReadonlyMap<string, ReferenceLink>;
}

// Raw HTML is allowed through markdown-it and then cut down by the sanitiser, so that
// harmless inline HTML (<br>, <kbd>, <details>) renders as on GitLab while script never does.
const markdown = new MarkdownIt({ html: true, linkify: true, breaks: false });

const GFM_CLASS: Record<Reference['kind'], string> = {
  issue: 'gfm gfm-issue',
  merge_request: 'gfm gfm-merge_request',
  snippet: 'gfm gfm-snippet',
  label: 'gfm gfm-label',
  milestone: 'gfm gfm-milestone',
  user: 'gfm gfm-project_member',
};

const leavesTheServer = (attribs: sanitizeHtml.Attributes) => !attribs.class?.startsWith('gfm') && /^(https?:|ftp:|\/\/)/i.test(attribs.href ?? '');

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'del', 's', 'ins', 'kbd', 'sup', 'sub', 'details', 'summary', 'input'],
  allowedAttributes: {
    a: ['href', 'title', 'class', 'data-reference-type', 'rel'],
    '*': ['dir'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    code: ['class'],
    pre: ['class'],
    span: ['class'],
    th: ['style', 'align'],
    td: ['style', 'align'],
    input: ['type', 'checked', 'disabled'],
    ol: ['start'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'ftp'],
  transformTags: {
    // Links users write to other sites: the browser must not pass the referrer or the page to
    // them. Relative links and reference links (class `gfm`) stay within the server.
    a: (tagName, attribs) => ({ tagName, attribs: leavesTheServer(attribs) ? { ...attribs, rel: 'nofollow noreferrer noopener' } : attribs }),
  },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: true,
  allowedStyles: { '*': { 'text-align': [/^(left|right|center)$/] } },
};

/** References in a Markdown text, outside code spans and code blocks. */
export function findReferences(source: string): Reference[] {
  const found: Reference[] = [];
  for (const token of markdown.parse(source, {})) {
    if (token.type !== 'inline' || !token.children) continue;
    let insideLink = 0;
    for (const child of token.children) {
      if (child.type === 'link_open') insideLink++;
      else if (child.type === 'link_close') insideLink--;
      else if (child.type === 'text' && insideLink === 0) found.push(...referencesIn(child.content));
    }
  }
  return found;
}

/** HTML rendered from another markup (AsciiDoc, say), cut down to what Markdown renders may hold. */
export function sanitizeRendered(html: string): string {
  return sanitizeHtml(html, SANITIZE);
}

/** Renders Markdown to sanitised HTML, linking the resolved references; no text renders as an empty string. */
export function renderMarkdown(source: string | null | undefined, options: RenderOptions = {}): string {
  if (!source) return '';
  const links = options.links ?? new Map<string, ReferenceLink>();
  const env = { links };
  return sanitizeHtml(linkedMarkdown.render(source, env), SANITIZE).trim();
}

// A copy of the renderer whose text rule links references; code spans and fences keep theirs.
const linkedMarkdown = new MarkdownIt({ html: true, linkify: true, breaks: false });
linkedMarkdown.core.ruler.push('service_references', (state) => {
  const links = (state.env as { links?: ReadonlyMap<string, ReferenceLink> }).links;
  if (!links || links.size === 0) return;
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const children = [];
    let insideLink = 0;
    for (const child of block.children) {
      if (child.type === 'link_open') insideLink++;
      if (child.type === 'link_close') insideLink--;
      if (child.type !== 'text' || insideLink > 0) {
        children.push(child);
        continue;
      }
      for (const part of splitByLinks(child.content, links)) {
        if (typeof part === 'string') {
          const text = new state.Token('text', '', 0);
          text.content = part;
          children.push(text);
          continue;
        }
        const open = new state.Token('link_open', 'a', 1);
        open.attrs = [
          ['href', part.link.href],
          ['class', GFM_CLASS[part.reference.kind]],
          ['data-reference-type', part.reference.kind],
        ];
        if (part.link.title) open.attrs.push(['title', part.link.title]);
        const text = new state.Token('text', '', 0);
        text.content = part.reference.text;
        children.push(open, text, new state.Token('link_close', 'a', -1));
      }
    }
    block.children = children;
  }
});

/** The fenced code blocks of a Markdown text, in order: their info string and their text (each line with its newline). */
export function fencedCodeBlocks(source: string): Array<{ info: string; content: string }> {
  return markdown
    .parse(source, {})
    .filter((token) => token.type === 'fence')
    .map((token) => ({ info: token.info.trim(), content: token.content }));
}
