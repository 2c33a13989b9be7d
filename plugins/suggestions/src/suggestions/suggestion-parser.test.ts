import { describe, expect, it } from 'vitest';
import { parseSuggestions } from './suggestion-parser.js';

const file = 'one\ntwo\nthree\nfour\nfive';

describe('parseSuggestions', () => {
  it('replaces the commented line, with lines above and below', () => {
    expect(parseSuggestions('```suggestion\nTWO\n```', file, 2)).toEqual([
      { fromLine: 2, toLine: 2, singleLine: true, fromContent: 'two\n', toContent: 'TWO\n' },
    ]);
    expect(parseSuggestions('Look:\n```suggestion:-1+2\nx\ny\n```', file, 3)).toEqual([
      { fromLine: 2, toLine: 5, singleLine: false, fromContent: 'two\nthree\nfour\nfive', toContent: 'x\ny' },
    ]);
  });

  it('reads each block in order, skips other code blocks and keeps deletions empty', () => {
    const body = '```ruby\nputs 1\n```\n\n```suggestion:+1\n```\n\n```suggestion:-2\nfirst\n```';
    expect(parseSuggestions(body, file, 3)).toEqual([
      { fromLine: 3, toLine: 4, singleLine: false, fromContent: 'three\nfour\n', toContent: '' },
      { fromLine: 1, toLine: 3, singleLine: false, fromContent: 'one\ntwo\nthree\n', toContent: 'first\n' },
    ]);
  });

  it('ignores blocks whose info string is not a suggestion', () => {
    expect(parseSuggestions('```suggestion:x\nTWO\n```\n`suggestion` inline', file, 2)).toEqual([]);
  });
});
