import { describe, expect, it } from 'vitest';
import { searchTerms } from './user-list-search.js';

describe('user list search terms', () => {
  it('splits words and keeps quoted phrases whole', () => {
    expect(searchTerms('test list')).toEqual(['test', 'list']);
    expect(searchTerms('  spaced   out ')).toEqual(['spaced', 'out']);
    expect(searchTerms('"two words" more')).toEqual(['more', 'two words']);
    expect(searchTerms('a"b')).toEqual(['a"b']);
  });
});
