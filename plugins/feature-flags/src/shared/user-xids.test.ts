import { describe, expect, it } from 'vitest';
import { validUserXids } from './user-xids.js';

describe('user id lists', () => {
  it('accepts unique, trimmed, non-empty ids of at most 256 characters', () => {
    for (const value of ['a', 'user1,user2', 'x'.repeat(256), '', 'a,b,', ',']) expect(validUserXids(value)).toBe(true);
  });

  it('rejects repeats, blanks, padding, control characters and long ids', () => {
    for (const value of ['a,a', 'a,,b', ',a', ' a', 'a ', 'a, b', 'a\nb', 'a\tb', 'a\rb', 'x'.repeat(257), ' ', null, 5, ['a']]) {
      expect(validUserXids(value)).toBe(false);
    }
  });
});
