import { describe, expect, it } from 'vitest';
import { fuzzyWords } from './fuzzy-match.js';

describe('fuzzy search words', () => {
  it('keeps words of three or more characters and quoted phrases', () => {
    expect(fuzzyWords('sprint 12 of "team alpha"')).toEqual(['sprint', 'team alpha']);
    expect(fuzzyWords('a b')).toEqual([]);
  });
});
