import { describe, expect, it } from 'vitest';
import { parseFrontMatter } from './front-matter.js';

describe('parseFrontMatter', () => {
  it('takes a YAML mapping between --- lines and leaves the rest as content', () => {
    expect(parseFrontMatter('---\ntitle: Real title\ntags:\n  - a\n  - b\n---\n# Body\n')).toEqual({
      frontMatter: { title: 'Real title', tags: ['a', 'b'] },
      content: '# Body\n',
    });
    expect(parseFrontMatter('  ---   yaml\ntitle: x\n---')).toEqual({ frontMatter: { title: 'x' }, content: '' });
  });

  it('reads anything else as content only', () => {
    for (const text of [
      'no front matter',
      '---\ntitle: never closed\n',
      '---\n- a list\n---\nbody',
      '---\n---\nempty block',
      '--- toml\ntitle = "x"\n---\nbody',
      '---\ntitle: [unclosed\n---\nbody',
      `---\ntitle: ${'x'.repeat(30_000)}\n---\nbody`,
      'text first\n---\ntitle: x\n---\n',
    ]) {
      expect(parseFrontMatter(text), text.slice(0, 30)).toEqual({ frontMatter: {}, content: text });
    }
  });
});
