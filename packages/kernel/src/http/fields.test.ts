import { describe, expect, it } from 'vitest';
import * as f from './fields.js';
import { params, validateParams } from './params.js';

const one = (field: Parameters<typeof params>[0][string], value: unknown) => validateParams(params({ x: field }), value === undefined ? {} : { x: value });

const ok = (field: Parameters<typeof params>[0][string], value: unknown) => {
  const result = one(field, value);
  if ('error' in result) throw new Error(`unexpected error: ${result.error}`);
  return (result.output as Record<string, unknown>).x;
};

const error = (field: Parameters<typeof params>[0][string], value: unknown) => {
  const result = one(field, value);
  return 'error' in result ? result.error : null;
};

describe('boolean', () => {
  it.each(['1', 'on', 'On', 'ON', 't', 'T', 'true', 'True', 'TRUE', 'y', 'Y', 'yes', 'Yes', 'YES', true, 1])('reads %s as true', (value) => {
    expect(ok(f.boolean(), value)).toBe(true);
  });

  it.each(['0', 'off', 'Off', 'OFF', 'f', 'F', 'false', 'False', 'FALSE', 'n', 'N', 'no', 'No', 'NO', false, 0])('reads %s as false', (value) => {
    expect(ok(f.boolean(), value)).toBe(false);
  });

  it.each(['TRue', 'yEs', 'maybe', '2', ' true', 2, ['true'], { a: 1 }])('rejects %j', (value) => {
    expect(error(f.boolean(), value)).toBe('x is invalid');
  });

  it('turns an empty string into null when optional', () => {
    expect(ok(f.optional(f.boolean()), '')).toBeNull();
  });
});

describe('integer', () => {
  it.each([
    ['42', 42],
    [' 7 ', 7],
    ['-3', -3],
    ['+3', 3],
    [5, 5],
  ])('reads %j', (value, expected) => {
    expect(ok(f.integer(), value)).toBe(expected);
  });

  it.each(['1.5', '12abc', '0x1f', 'abc', '1 2', 1.5, '99999999999999999999', ['1'], { a: '1' }])('rejects %j', (value) => {
    expect(error(f.integer(), value)).toBe('x is invalid');
  });

  it('turns an empty string into null when optional', () => {
    expect(ok(f.optional(f.integer()), '')).toBeNull();
  });

  it('reports an empty string for a required integer as missing', () => {
    expect(error(f.integer(), '')).toBe('x is missing');
  });

  it.each([2147483648, '2147483648', -2147483649, 9007199254740991])('refuses %j, which no integer column holds', (value) => {
    expect(error(f.integer(), value)).toBe('x does not have a valid value');
  });

  it('takes both ends of an integer column', () => {
    expect(ok(f.integer(), 2147483647)).toBe(2147483647);
    expect(ok(f.integer(), '-2147483648')).toBe(-2147483648);
  });

  it('bounds lists and optional integers alike', () => {
    expect(error(f.optional(f.integer()), '2147483648')).toBe('x does not have a valid value');
    expect(error(f.array(f.integer()), [1, 2147483648])).toBe('x does not have a valid value');
    expect(error(f.commaList(f.integer()), '1,2147483648')).toBe('x does not have a valid value');
  });

  it('takes any safe integer for a bigint column, and a chosen iid only up to where ids keep room', () => {
    expect(ok(f.bigInteger(), 9007199254740991)).toBe(9007199254740991);
    expect(ok(f.chosenIid(), 2000000000)).toBe(2000000000);
    expect(error(f.chosenIid(), 2000000001)).toBe('x does not have a valid value');
    expect(error(f.chosenIid(), 0)).toBe('x does not have a valid value');
  });
});

describe('describeField', () => {
  it('tells what a field takes, through optional wrappers and pipes around it', () => {
    expect(f.describeField(f.optional(f.integer()))).toEqual({ type: 'integer', range: { min: -2147483648, max: 2147483647 }, required: false });
    expect(f.describeField(f.nonBlankString())).toEqual({ type: 'string', required: true });
    expect(f.describeField(f.commaList(f.integer()))).toMatchObject({ type: 'array', commaSeparated: true, items: { type: 'integer' } });
    expect(f.describeField(f.values(['a', 'b']))).toEqual({ type: 'values', values: ['a', 'b'], required: true });
    expect(f.integerRange(f.optional(f.array(f.chosenIid())))).toEqual({ min: 1, max: 2000000000 });
    expect(f.describeField({})).toBeUndefined();
  });
});

describe('string', () => {
  it('keeps an empty string', () => {
    expect(ok(f.optional(f.string()), '')).toBe('');
  });

  it('turns numbers and booleans into text', () => {
    expect(ok(f.string(), 5)).toBe('5');
    expect(ok(f.string(), false)).toBe('false');
  });

  it('rejects arrays and hashes', () => {
    expect(error(f.string(), ['a'])).toBe('x is invalid');
    expect(error(f.string(), { a: 'b' })).toBe('x is invalid');
  });

  it('rejects a blank value where blanks are not allowed', () => {
    expect(error(f.nonBlankString(), '  ')).toBe('x is empty');
    expect(ok(f.nonBlankString(), ' a ')).toBe(' a ');
  });
});

describe('values', () => {
  it('accepts a listed value', () => {
    expect(ok(f.values(['asc', 'desc']), 'asc')).toBe('asc');
  });

  it('rejects an unlisted value', () => {
    expect(error(f.values(['asc', 'desc']), 'up')).toBe('x does not have a valid value');
  });

  it('coerces with a base field first', () => {
    expect(ok(f.values([10, 20], f.integer()), '20')).toBe(20);
    expect(error(f.values([10, 20], f.integer()), '30')).toBe('x does not have a valid value');
    expect(error(f.values([10, 20], f.integer()), 'ten')).toBe('x is invalid');
  });
});

describe('array', () => {
  it('coerces each item', () => {
    expect(ok(f.array(f.integer()), ['1', ' 2'])).toEqual([1, 2]);
  });

  it('rejects a bare scalar', () => {
    expect(error(f.array(f.string()), 'a')).toBe('x is invalid');
    expect(error(f.array(f.string()), 'a,b')).toBe('x is invalid');
  });

  it('turns null into an empty array', () => {
    expect(ok(f.array(f.string()), null)).toEqual([]);
    expect(ok(f.optional(f.array(f.string())), null)).toEqual([]);
  });

  it('names a missing key of a nested hash with brackets', () => {
    const field = f.array(f.hash({ key: f.string(), value: f.string() }));
    expect(error(field, [{ key: 'A', value: '1' }, { value: '2' }])).toBe('x[1][key] is missing');
  });

  it('names a missing key of a nested hash inside an optional array', () => {
    const field = f.optional(f.array(f.hash({ key: f.string(), value: f.string() })));
    expect(error(field, [{ value: '1' }])).toBe('x[0][key] is missing');
  });
});

describe('commaList', () => {
  it('splits and trims a string', () => {
    expect(ok(f.commaList(), 'a, b')).toEqual(['a', 'b']);
  });

  it('splits array elements that contain commas', () => {
    expect(ok(f.commaList(), ['a,b', 'c'])).toEqual(['a', 'b', 'c']);
  });

  it('drops empty parts', () => {
    expect(ok(f.commaList(), 'a,,b,')).toEqual(['a', 'b']);
  });

  it('coerces items with the given field', () => {
    expect(ok(f.commaList(f.integer()), '1,2')).toEqual([1, 2]);
    expect(error(f.commaList(f.integer()), '1,x')).toMatch(/is invalid$/);
  });

  it('turns null into an empty array and rejects a hash', () => {
    expect(ok(f.commaList(), null)).toEqual([]);
    expect(error(f.commaList(), { a: 'b' })).toBe('x is invalid');
  });
});

describe('hash', () => {
  it('keeps declared keys only', () => {
    expect(ok(f.hash({ environment_scope: f.string() }), { environment_scope: 'prod', other: 'x' })).toEqual({ environment_scope: 'prod' });
  });

  it('rejects a scalar', () => {
    expect(error(f.hash({ a: f.optional(f.string()) }), 'a')).toBe('x is invalid');
  });
});

describe('datetime', () => {
  it('reads ISO 8601 with a zone', () => {
    expect((ok(f.datetime(), '2020-07-23T16:31:47.729+02:00') as Date).toISOString()).toBe('2020-07-23T14:31:47.729Z');
    expect((ok(f.datetime(), '2020-07-23T14:31:47Z') as Date).toISOString()).toBe('2020-07-23T14:31:47.000Z');
  });

  it('reads a datetime without a zone as UTC', () => {
    expect((ok(f.datetime(), '2020-07-23T14:31:47') as Date).toISOString()).toBe('2020-07-23T14:31:47.000Z');
    expect((ok(f.datetime(), '2020-07-23 14:31') as Date).toISOString()).toBe('2020-07-23T14:31:00.000Z');
  });

  it('reads a bare date as midnight UTC', () => {
    expect((ok(f.datetime(), '2020-07-23') as Date).toISOString()).toBe('2020-07-23T00:00:00.000Z');
  });

  it.each(['yesterday', '2020-13-01T00:00:00Z', '23/07/2020', '2020-07-23T25:00:00Z', 12])('rejects %j', (value) => {
    expect(error(f.datetime(), value)).toBe('x is invalid');
  });
});

describe('date', () => {
  it('reads YYYY-MM-DD', () => {
    expect(ok(f.date(), '2024-02-29')).toBe('2024-02-29');
  });

  it.each(['2023-02-29', '2024-1-05', '2024-01-05T00:00:00Z', '05/01/2024'])('rejects %j', (value) => {
    expect(error(f.date(), value)).toBe('x is invalid');
  });
});

describe('optional', () => {
  it('fills in the fallback when absent', () => {
    expect(ok(f.optional(f.values(['asc', 'desc']), 'desc'), undefined)).toBe('desc');
  });

  it('keeps an explicit null as null, even with a fallback', () => {
    expect(ok(f.optional(f.string(), 'x'), null)).toBeNull();
    expect(ok(f.optional(f.integer(), 5), '')).toBeNull();
  });

  it('leaves an absent key out without a fallback', () => {
    const result = validateParams(params({ a: f.optional(f.string()) }), {});
    expect(result).toEqual({ output: {} });
  });

  it('still validates a present value', () => {
    expect(error(f.optional(f.integer()), 'abc')).toBe('x is invalid');
  });
});
