import { describe, expect, it } from 'vitest';
import { wildcardMatches } from './wildcard.js';

describe('wildcardMatches', () => {
  it.each([
    ['main', 'main', true],
    ['main', 'mainline', false],
    ['*', 'anything/at/all', true],
    ['release/*', 'release/1.0', true],
    ['release/*', 'release', false],
    ['*-stable', '1-0-stable', true],
    ['*-stable', '1-0-stable-x', false],
    ['feat*x*y', 'feature-x-y', true],
    ['feat*x*y', 'feature-y-x', false],
    ['a*a', 'a', false],
    ['a*a', 'aa', true],
    ['review/*/*', 'review/app/one', true],
    ['**', '', true],
  ])('%s against %s: %s', (pattern, text, expected) => {
    expect(wildcardMatches(pattern, text)).toBe(expected);
  });

  it('answers patterns that make a backtracking regular expression run for ages', () => {
    // As `^a.*a.*…b$`, this would not finish within the test's timeout.
    expect(wildcardMatches(`${'a*'.repeat(40)}b`, 'a'.repeat(5000))).toBe(false);
    expect(wildcardMatches(`${'a*'.repeat(40)}b`, `${'a'.repeat(5000)}b`)).toBe(true);
  });
});
