import { describe, expect, it } from 'vitest';
import { findReferences, renderMarkdown, sanitizeRendered } from './index.js';

describe('renderMarkdown', () => {
  it('renders Markdown', () => {
    expect(renderMarkdown('# Title\n\n**bold** and `code`')).toBe('<h1>Title</h1>\n<p><strong>bold</strong> and <code>code</code></p>');
  });

  it('drops script, event handlers and javascript: links', () => {
    const html = renderMarkdown('<script>alert(1)</script><img src="x" onerror="alert(1)">[a](javascript:alert(1)) <a href="JaVaScRiPt:alert(1)">b</a>');
    expect(html).toBe('<img src="x" />[a](javascript:alert(1)) <a>b</a>');
  });

  it('links the references it was given and leaves the rest as text', () => {
    const links = new Map([
      ['#12', { href: '/g/p/-/issues/12', title: 'Fix login' }],
      ['@root', { href: '/root' }],
    ]);
    expect(renderMarkdown('See #12 and #13, ask @root', { links })).toBe(
      '<p>See <a href="/g/p/-/issues/12" class="gfm gfm-issue" data-reference-type="issue" title="Fix login">#12</a> and #13, ask <a href="/root" class="gfm gfm-project_member" data-reference-type="user">@root</a></p>',
    );
  });

  it('does not link references inside code', () => {
    const links = new Map([['#12', { href: '/g/p/-/issues/12' }]]);
    expect(renderMarkdown('`#12`\n\n```\n#12\n```', { links })).not.toContain('<a');
  });
});

describe('findReferences', () => {
  it('finds every kind, quoted names included, and skips code', () => {
    expect(findReferences('#1 !2 $3 ~bug ~"to do" %v1.0 %"Sprint 4" @root `#9`').map((r) => [r.kind, r.key])).toEqual([
      ['issue', '1'],
      ['merge_request', '2'],
      ['snippet', '3'],
      ['label', 'bug'],
      ['label', 'to do'],
      ['milestone', 'v1.0'],
      ['milestone', 'Sprint 4'],
      ['user', 'root'],
    ]);
  });

  it('ignores anchors, emails and HTML entities', () => {
    expect(findReferences('mail me@example.com, see https://x.test/#12 and &#39;')).toEqual([]);
  });
});

describe('sanitizeRendered', () => {
  it('keeps the markup Markdown renders may hold and drops script and javascript: links', () => {
    expect(sanitizeRendered('<div class="paragraph"><p><strong>b</strong> <a href="javascript:x()">x</a></p></div><script>alert(1)</script>')).toBe(
      '<div><p><strong>b</strong> <a>x</a></p></div>',
    );
  });
});
