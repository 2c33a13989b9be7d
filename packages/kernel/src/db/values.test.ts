import { describe, expect, it } from 'vitest';
import { MAX_RECORD_ID, nextInternalId, recordId } from './values.js';

describe('recordId', () => {
  it('reads an id a record can have, from a number or decimal text', () => {
    expect(recordId(7)).toBe(7);
    expect(recordId('42')).toBe(42);
    expect(recordId(String(MAX_RECORD_ID))).toBe(MAX_RECORD_ID);
  });

  it('gives null for anything no record can have', () => {
    for (const value of [0, -1, 1.5, MAX_RECORD_ID + 1, '2147483648', '1e3', '0x10', '', 'abc', `1${'0'.repeat(40)}`, null, undefined, {}]) {
      expect(recordId(value)).toBeNull();
    }
  });
});

describe('nextInternalId', () => {
  it('counts on from the largest iid taken', () => {
    expect(nextInternalId(null, 'Issue')).toBe(1);
    expect(nextInternalId(41, 'Issue')).toBe(42);
    expect(nextInternalId(MAX_RECORD_ID - 1, 'Issue')).toBe(MAX_RECORD_ID);
  });

  it('answers 409 once the column has no larger iid, rather than a write the database refuses', () => {
    expect(() => nextInternalId(MAX_RECORD_ID, 'Issue')).toThrow(
      expect.objectContaining({ status: 409, body: { message: 'Issue internal ids are exhausted' } }),
    );
  });
});
