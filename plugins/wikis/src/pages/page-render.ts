/**
 * `render_html`: Markdown pages are rendered with the shared Markdown renderer (markdown-it
 * and a sanitiser), AsciiDoc pages with asciidoctor.js in its secure mode (no includes) and
 * then the same sanitiser. RDoc and Org have no maintained JavaScript renderer: their text is
 * shown escaped, in a `<pre>` block, so nothing a writer puts in a page runs in a reader's browser.
 */
import { renderMarkdown, sanitizeRendered } from '@forgekit/markdown';
import type { WikiFormat } from './page-paths.js';

type AsciidoctorProcessor = { convert(text: string, options: Record<string, unknown>): string };

// Loaded on the first AsciiDoc page: asciidoctor.js takes a while to load and most wikis never need it.
let asciidoctor: Promise<AsciidoctorProcessor> | undefined;
const loadAsciidoctor = () => {
  asciidoctor ??= import('@asciidoctor/core').then((module) => (module.default as unknown as () => AsciidoctorProcessor)());
  return asciidoctor;
};

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

// Five fixed replacements: smaller than a dependency for it.
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

export async function renderPage(format: WikiFormat, content: string): Promise<string> {
  if (format === 'markdown') return renderMarkdown(content);
  if (format === 'asciidoc') {
    const html = (await loadAsciidoctor()).convert(content, { safe: 'secure', attributes: { showtitle: true } });
    return sanitizeRendered(html);
  }
  return `<pre>${escapeHtml(content)}</pre>`;
}
