import { describe, expect, it } from 'vitest';
import { MAX_RECORD_ID, parseJsonArray, recordId, toBool, toDate, toIso } from './values.js';

describe('toIso', () => {
  it('writes a Date as UTC with milliseconds', () => {
    expect(toIso(new Date(Date.UTC(2020, 6, 23, 14, 31, 47, 729)))).toBe('2020-07-23T14:31:47.729Z');
  });

  it('reads epoch milliseconds as a number, a bigint or text', () => {
    expect(toIso(1595514707729)).toBe('2020-07-23T14:31:47.729Z');
    expect(toIso(1595514707729n)).toBe('2020-07-23T14:31:47.729Z');
    expect(toIso('1595514707729')).toBe('2020-07-23T14:31:47.729Z');
  });

  it("reads SQLite's own text as UTC", () => {
    expect(toIso('2020-07-23 14:31:47')).toBe('2020-07-23T14:31:47.000Z');
    expect(toIso('2020-07-23 14:31:47.5')).toBe('2020-07-23T14:31:47.500Z');
  });

  it('keeps an explicit zone', () => {
    expect(toIso('2020-07-23T16:31:47+02:00')).toBe('2020-07-23T14:31:47.000Z');
    expect(toIso('2020-07-23T14:31:47.729Z')).toBe('2020-07-23T14:31:47.729Z');
  });

  it('passes null through', () => {
    expect(toIso(null)).toBeNull();
    expect(toIso(undefined)).toBeNull();
  });
});

describe('toBool', () => {
  it.each([true, 1, '1', 't', 'true'])('reads %j as true', (value) => {
    expect(toBool(value)).toBe(true);
  });

  it.each([false, 0, '0', 'f', 'false', null, undefined, ''])('reads %j as false', (value) => {
    expect(toBool(value)).toBe(false);
  });
});

describe('toDate', () => {
  it('reads a date-only column', () => {
    expect(toDate('2024-05-01')).toBe('2024-05-01');
    expect(toDate(new Date(Date.UTC(2024, 4, 1)))).toBe('2024-05-01');
    expect(toDate(null)).toBeNull();
  });
});

describe('parseJsonArray', () => {
  it('reads JSON text and arrays alike', () => {
    expect(parseJsonArray('["a","b"]')).toEqual(['a', 'b']);
    expect(parseJsonArray(['a'])).toEqual(['a']);
    expect(parseJsonArray('')).toEqual([]);
    expect(parseJsonArray(null)).toEqual([]);
  });
});

describe('toIso with PostgreSQL text', () => {
  it('reads a timestamptz with a bare hour offset', () => {
    expect(toIso('2026-11-22 05:17:42.45+00')).toBe('2026-11-22T05:17:42.450Z');
    expect(toIso('2026-11-22 07:17:42.45+02')).toBe('2026-11-22T05:17:42.450Z');
  });
});

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
