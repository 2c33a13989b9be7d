import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.js';

describe('renderMarkdown', () => {
  it('renders Markdown', () => {
    expect(renderMarkdown('**bold** and `code`')).toBe('<p><strong>bold</strong> and <code>code</code></p>');
    expect(renderMarkdown('| a |\n|---|\n| b |')).toContain('<table>');
    expect(renderMarkdown('see https://forge.example.com/x')).toContain('<a href="https://forge.example.com/x" rel="nofollow noreferrer noopener">');
  });

  it('drops scripts, event handlers and javascript: links', () => {
    const html = renderMarkdown('<script>alert(1)</script><img src="x" onerror="alert(2)"> [click](javascript:alert(3)) <a href="javascript:alert(4)">x</a>');
    expect(html).not.toMatch(/<script|onerror|href="javascript:/i);
    expect(html).toContain('<img src="x" />');
    expect(html).toContain('<a>x</a>');
  });

  it('renders nothing for empty text', () => {
    expect(renderMarkdown('')).toBe('');
    expect(renderMarkdown(null)).toBe('');
  });
});
