/**
 * `render_html`: Markdown pages are rendered with the shared Markdown renderer (markdown-it
 * and a sanitiser), AsciiDoc pages with asciidoctor.js in secure mode (no includes), in a
 * worker thread (asciidoc-renderer.ts), and then the same sanitiser. RDoc and Org have no
 * maintained JavaScript renderer: their text is shown escaped, in a `<pre>` block, as is an
 * AsciiDoc page whose render failed or timed out, so nothing a writer puts in a page runs in
 * a reader's browser.
 */
import { renderMarkdown, sanitizeRendered } from '@forgekit/markdown';
import type { AsciidocRenderer } from './asciidoc-renderer.js';
import type { WikiFormat } from './page-paths.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

// Five fixed replacements: smaller than a dependency for it.
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/** A page's HTML; `final` is false for a stand-in (the escaped text of a failed render), which is not kept. */
export interface RenderedPage {
  html: string;
  final: boolean;
}

export function createPageRenderer(asciidoc: Pick<AsciidocRenderer, 'render'>) {
  return async (format: WikiFormat, content: string): Promise<RenderedPage> => {
    if (format === 'markdown') return { html: await renderMarkdown(content), final: true };
    if (format === 'asciidoc') {
      const html = await asciidoc.render(content);
      if (html !== null) return { html: sanitizeRendered(html), final: true };
      return { html: `<pre>${escapeHtml(content)}</pre>`, final: false };
    }
    return { html: `<pre>${escapeHtml(content)}</pre>`, final: true };
  };
}

export type PageRenderer = ReturnType<typeof createPageRenderer>;
