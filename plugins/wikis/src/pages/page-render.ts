/**
 * `render_html`: Markdown pages are rendered with the shared Markdown renderer (markdown-it
 * and a sanitiser). AsciiDoc, RDoc and Org pages show their text escaped, in a `<pre>` block,
 * so nothing a writer puts in a page runs in a reader's browser. AsciiDoc is not rendered with
 * asciidoctor.js: its Opal runtime adds `$`-prefixed methods to `String.prototype` and other
 * built-ins of the whole process, which broke unrelated code (a `$ref` lookup on any string
 * found a function).
 */
import { renderMarkdown } from '@forgekit/markdown';
import type { WikiFormat } from './page-paths.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

// Five fixed replacements: smaller than a dependency for it.
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

export async function renderPage(format: WikiFormat, content: string): Promise<string> {
  if (format === 'markdown') return renderMarkdown(content);
  return `<pre>${escapeHtml(content)}</pre>`;
}
