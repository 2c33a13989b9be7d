/**
 * Markdown as GitLab's `*_html` fields show it. The one renderer is `@forgekit/markdown`
 * (markdown-it, sanitised with sanitize-html, with reference links); the kernel re-exports it
 * for the plugins that render text without references.
 */
export { renderMarkdown } from '@forgekit/markdown';
