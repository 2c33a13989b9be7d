import { describe, expect, it } from 'vitest';
import { charLength, longerThan, tooLongMessage } from './text-length.js';

describe('charLength', () => {
  it('counts a character outside the Basic Multilingual Plane once, as Ruby does', () => {
    expect(charLength('a😀b')).toBe(3);
    expect(charLength('é')).toBe(1);
    expect(charLength('')).toBe(0);
  });

  it('counts a lone surrogate as a character', () => {
    expect(charLength('\ud83d')).toBe(1);
    expect(charLength('\ud83da')).toBe(2);
  });
});

describe('longerThan', () => {
  it('compares characters, not UTF-16 units', () => {
    expect(longerThan('😀'.repeat(3), 3)).toBe(false);
    expect(longerThan('😀'.repeat(4), 3)).toBe(true);
    expect(longerThan('abcd', 4)).toBe(false);
    expect(longerThan('abcde', 4)).toBe(true);
  });

  it('answers for text far beyond the limit', () => {
    expect(longerThan('x'.repeat(50_000), 10)).toBe(true);
  });
});

describe('tooLongMessage', () => {
  it("gives Rails' text", () => {
    expect(tooLongMessage(255)).toBe('is too long (maximum is 255 characters)');
    expect(tooLongMessage(1)).toBe('is too long (maximum is 1 character)');
  });
});
