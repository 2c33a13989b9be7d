import { describe, expect, it } from 'vitest';
import { createAsciidocRenderer } from './asciidoc-renderer.js';
import { createPageRenderer } from './page-render.js';

const dollarKeys = () =>
  [String.prototype, Array.prototype, Object.prototype, Number.prototype, Boolean.prototype, Function.prototype].flatMap((builtin) =>
    Object.getOwnPropertyNames(builtin).filter((name) => name.startsWith('$')),
  );

describe('AsciiDoc in a worker thread', () => {
  it('renders with asciidoctor.js in secure mode and leaves this thread’s built-ins alone', async () => {
    const asciidoc = createAsciidocRenderer();
    try {
      const [page, other] = await Promise.all([asciidoc.render('= Title\n\n== Part\n\nSome *bold*.\n\ninclude::/etc/passwd[]\n'), asciidoc.render('plain')]);
      expect(page).toContain('<h1>Title</h1>');
      expect(page).toContain('<h2 id="_part">Part</h2>');
      expect(page).toContain('<strong>bold</strong>');
      expect(page).not.toContain('root:');
      expect(other).toContain('<p>plain</p>');
      expect(dollarKeys()).toEqual([]);
    } finally {
      await asciidoc.close();
    }
  });

  it('answers null past the timeout and past the queue bound, and starts afresh after', async () => {
    const slow = createAsciidocRenderer({ timeoutMs: 1, maxQueued: 1 });
    try {
      // The first render loads asciidoctor.js in a new worker: far longer than 1 ms.
      const first = slow.render('== A');
      expect(await slow.render('== B')).toBeNull();
      expect(await first).toBeNull();
    } finally {
      await slow.close();
    }
  });

  it('falls back to the escaped text, not kept, when the render fails; sanitises what it renders', async () => {
    const failing = createPageRenderer({ render: async () => null });
    expect(await failing('asciidoc', '<b>x</b>')).toEqual({ html: '<pre>&lt;b&gt;x&lt;/b&gt;</pre>', final: false });
    const unsafe = createPageRenderer({ render: async () => '<p onclick="x()">hi</p><script>alert(1)</script>' });
    expect(await unsafe('asciidoc', 'hi')).toEqual({ html: '<p>hi</p>', final: true });
    expect(await unsafe('org', '<i>')).toEqual({ html: '<pre>&lt;i&gt;</pre>', final: true });
  });
});
