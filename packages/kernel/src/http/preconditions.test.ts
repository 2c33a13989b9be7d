import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.js';
import { checkUnmodifiedSince } from './preconditions.js';

describe('checkUnmodifiedSince', () => {
  const updated = new Date('2026-05-01T12:00:00.500Z');

  it('refuses with 412 when the resource changed after the given time', () => {
    const error = (() => {
      try {
        checkUnmodifiedSince('Fri, 01 May 2026 12:00:00 GMT', updated);
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(ApiError);
    expect([(error as ApiError).status, (error as ApiError).body]).toEqual([412, { message: '412 Precondition Failed' }]);
  });

  it('lets the request through when the resource is older, or the header is absent or unreadable', () => {
    expect(() => checkUnmodifiedSince('Fri, 01 May 2026 12:00:01 GMT', updated)).not.toThrow();
    expect(() => checkUnmodifiedSince(undefined, updated)).not.toThrow();
    expect(() => checkUnmodifiedSince('not a date', updated.toISOString())).not.toThrow();
  });
});
