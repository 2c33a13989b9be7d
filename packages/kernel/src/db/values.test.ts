import { describe, expect, it } from 'vitest';
import { MAX_RECORD_ID, recordId } from './values.js';

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
