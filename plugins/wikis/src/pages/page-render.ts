/**
 * `render_html`: Markdown pages are rendered with the shared Markdown renderer (markdown-it
 * and a sanitiser). RDoc, AsciiDoc and Org have no renderer here yet: their text is shown
 * escaped, in a `<pre>` block, so nothing a writer puts in a page runs in a reader's browser.
 */
import { renderMarkdown } from '@forgekit/markdown';
import type { WikiFormat } from './page-paths.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

// Five fixed replacements: smaller than a dependency for it.
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

export function renderPage(format: WikiFormat, content: string): string {
  if (format === 'markdown') return renderMarkdown(content);
  return `<pre>${escapeHtml(content)}</pre>`;
}
