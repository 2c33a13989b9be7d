/**
 * Markdown as GitLab's `*_html` fields show it: rendered with markdown-it (CommonMark, GFM
 * tables and strikethrough, links made from bare URLs) and sanitised with sanitize-html, so
 * no script, event handler or `javascript:` link written by a user reaches another user.
 */
import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

const markdown = new MarkdownIt({ html: true, linkify: true, breaks: false });

const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'del', 's', 'details', 'summary', 'input'],
  allowedAttributes: {
    ...sanitizeHtml.defaults.allowedAttributes,
    a: ['href', 'title', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    code: ['class'],
    td: ['align'],
    th: ['align'],
    input: ['type', 'checked', 'disabled'],
    '*': ['dir'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  transformTags: {
    // Links that users write lead elsewhere: the browser must not pass the referrer or the page to them.
    a: sanitizeHtml.simpleTransform('a', { rel: 'nofollow noreferrer noopener' }),
  },
};

/** `text` rendered to sanitised HTML; empty text renders as an empty string. */
export function renderMarkdown(text: string | null | undefined): string {
  if (!text) return '';
  return sanitizeHtml(markdown.render(text), ALLOWED).trim();
}
