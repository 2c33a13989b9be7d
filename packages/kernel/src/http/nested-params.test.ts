import { describe, expect, it } from 'vitest';
import { nestPairs, parseNestedParams } from './nested-params.js';

describe('parseNestedParams', () => {
  it('reads plain pairs, decoding + and percent escapes', () => {
    expect(parseNestedParams('a=1&b=x+y&c=%2Fz&d')).toEqual({ a: '1', b: 'x y', c: '/z', d: null });
  });

  it('reads arrays and hashes', () => {
    expect(parseNestedParams('a[]=x&a[]=y&filter[environment_scope]=prod&not[labels]=bug')).toEqual({
      a: ['x', 'y'],
      filter: { environment_scope: 'prod' },
      not: { labels: 'bug' },
    });
  });

  it('starts a new hash in an array when a key repeats, as Rack does', () => {
    expect(parseNestedParams('s[][name]=a&s[][value]=1&s[][name]=b&s[][value]=2')).toEqual({
      s: [
        { name: 'a', value: '1' },
        { name: 'b', value: '2' },
      ],
    });
  });

  it('nests arrays of hashes inside hashes of arrays', () => {
    expect(parseNestedParams('s[][scopes][][environment_scope]=*&s[][name]=default')).toEqual({
      s: [{ scopes: [{ environment_scope: '*' }], name: 'default' }],
    });
  });

  it('turns indexed hashes into arrays', () => {
    expect(parseNestedParams('variables[1][key]=B&variables[0][key]=A&variables[0][value]=1')).toEqual({
      variables: [{ key: 'A', value: '1' }, { key: 'B' }],
    });
  });

  it('decodes bracket escapes in names', () => {
    expect(parseNestedParams('filter%5Benvironment_scope%5D=prod')).toEqual({ filter: { environment_scope: 'prod' } });
  });

  it('refuses absurd nesting', () => {
    expect(() => parseNestedParams(`a${'[b]'.repeat(40)}=1`)).toThrow(RangeError);
  });
});

describe('nestPairs', () => {
  it('nests multipart field names and keeps non-string values', () => {
    const file = { filename: 'a.txt', data: Buffer.from('hi') };
    const nested = nestPairs([
      ['a[b]', '1'],
      ['file', file],
    ]);
    expect(nested).toEqual({ a: { b: '1' }, file });
    expect(Buffer.isBuffer((nested.file as typeof file).data)).toBe(true);
  });
});

describe('keys that reach a prototype', () => {
  const hostile = [
    '__proto__[polluted]=1',
    'constructor[prototype][polluted]=1',
    'a[__proto__][polluted]=1',
    'a[][__proto__][polluted]=1',
    'a[constructor][prototype][polluted]=1',
    '%5F%5Fproto%5F%5F[polluted]=1',
    'prototype[polluted]=1',
  ];

  it.each(hostile)('%s sets nothing on Object.prototype and is dropped', (query) => {
    const parsed = parseNestedParams(`${query}&kept=yes`);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(parsed.kept).toBe('yes');
    expect(JSON.stringify(parsed)).not.toContain('polluted');
  });

  it('drops them from multipart field names too', () => {
    const nested = nestPairs([
      ['__proto__[polluted]', '1'],
      ['constructor[prototype][polluted]', '1'],
      ['ok', '1'],
    ]);
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Object.keys(nested)).toEqual(['ok']);
  });

  it('builds hashes without a prototype, so a key named like a method is plain data', () => {
    const parsed = parseNestedParams('a[toString]=x&a[hasOwnProperty]=y');
    expect(parsed.a).toEqual({ toString: 'x', hasOwnProperty: 'y' });
    expect(Object.getPrototypeOf(parsed)).toBeNull();
  });
});
