/**
 * Hostile request pieces as fast-check arbitraries. Values are small descriptions
 * (`{ huge: 'x', length: 200_000 }`, not the string itself), so that a failing case
 * prints short and shrinks well; `render-request.ts` turns them into bytes.
 */
import type { DescribedField } from '@forgekit/kernel';
import fc from 'fast-check';

/** A value in a query string, form body or multipart field. */
export type TextValue =
  | { text: string }
  /** Sent as it is, already percent-encoded (bad encodings and invalid UTF-8 live here). */
  | { raw: string }
  | { huge: string; length: number };

/** A JSON value; objects are entry lists, so that keys can repeat. */
export type JsonValue =
  | { scalar: string | number | boolean | null }
  | { huge: string; length: number }
  | { list: JsonValue[] }
  | { entries: [string, JsonValue][] }
  /** `[[[…]]]` or `{"a":{"a":…}}`, nested `depth` times. */
  | { deep: 'list' | 'hash'; depth: number };

export type Pair = [name: string, value: TextValue | null];

export interface MultipartPart {
  name: string;
  value: TextValue;
  filename?: string;
  contentType?: string;
}

export type Body =
  | { kind: 'none' }
  | { kind: 'form'; pairs: Pair[]; contentType: string }
  | { kind: 'json'; value: JsonValue; contentType: string }
  | { kind: 'json-text'; text: string; contentType: string }
  | {
      kind: 'multipart';
      parts: MultipartPart[];
      /** Cut the encoded body to this share of its length (1: whole). */
      keep: number;
      /** `missing`: no boundary parameter; `wrong`: a different one from the body's. */
      boundary: 'right' | 'missing' | 'wrong';
      closed: boolean;
    }
  | { kind: 'bytes'; bytes: number[]; contentType: string };

/** Numbers as text that sit outside every column and integer type, or are not numbers at all. */
const NUMBER_TEXTS = [
  '0',
  '-1',
  '-0',
  '0.5',
  '-2147483649',
  '2147483648',
  '4294967296',
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775809',
  `1${'0'.repeat(40)}`,
  'NaN',
  'Infinity',
  '-Infinity',
  '0x7fffffff',
  '1_000',
  ' ',
  '+',
  '-',
  '.',
];

const WORDS = ['', 'true', 'false', 'null', 'nil', 'undefined', '[]', '{}', 'main', 'HEAD', '*', 'a,b,,c', '..', '../..', '/', '%', 'ALL', 'any', 'none'];

/** Raw fragments: bad percent-encodings, encoded NUL and invalid UTF-8 sequences. */
const RAW_TEXTS = [
  '%',
  '%%',
  '%zz',
  '%0',
  '%00',
  'a%00b',
  '%FF',
  '%FE%FF',
  '%C0%AF',
  '%C0%80',
  '%ED%A0%80',
  '%F4%90%80%80',
  '%E2%82',
  '%F0%9F',
  '%80',
  '%2e%2e%2f',
  '%25',
  '%u0041',
  '%C3%28',
  '%EF%BB%BF',
  '%0D%0A',
  '%0Aset-cookie:x',
];

const DATES = ['2024-02-30', '0000-00-00', '9999-12-31T23:59:60Z', '2024-13-01T00:00:00+25:00', '1970-01-01T00:00:00.000000000001Z', '-000001-01-01'];

/** Strings built to hurt: NUL bytes, lone surrogates, control and combining characters. */
const NASTY_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(64),
  '\uD800',
  '\uDFFF',
  'a\uD83D',
  '\uFEFF',
  '\u202E',
  '\r\n',
  '\t',
  '\u0301'.repeat(50),
  '𝔘𝔫𝔦',
  '\u{10FFFF}',
  '"\'`;--',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal `${x}`, as clients send it
  '${x}',
  '{{x}}',
  '<script>',
  'a'.repeat(256),
  'é'.repeat(1024),
];

export const hugeText = fc.record({
  huge: fc.constantFrom('x', 'é', '\u0000', '[', '%', '€', '0'),
  length: fc.integer({ min: 200_000, max: 300_000 }),
});

/** Values that coerce into a small positive number are left out: they could name a seeded user or token. */
export function mayNameSeededRecord(text: string): boolean {
  return [Number(text), Number.parseInt(text, 10), Number.parseFloat(text)].some((n) => Number.isFinite(n) && n >= 1 && n < 1_000_000);
}

export const plainText = fc.oneof(
  fc.constantFrom(...NUMBER_TEXTS, ...WORDS, ...DATES, ...NASTY_STRINGS),
  fc.string({ maxLength: 40, unit: 'binary' }),
  fc.string({ maxLength: 10 }),
);

export function textValue(real: readonly string[]): fc.Arbitrary<TextValue> {
  return fc.oneof(
    { weight: 3, arbitrary: plainText.map((text) => ({ text })) },
    { weight: 2, arbitrary: fc.constantFrom(...real).map((text) => ({ text })) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_TEXTS).map((raw) => ({ raw })) },
    { weight: 1, arbitrary: hugeText },
  );
}

const NAME_SUFFIXES = [
  '',
  '',
  '',
  '[]',
  '[x]',
  '[][x]',
  '[0]',
  '[0][key]',
  '[1][value]',
  '[__proto__]',
  '[constructor][prototype]',
  '[prototype]',
  '[',
  ']',
  '[]]',
  '[[]]',
  '][',
  '[%00]',
  '[][]',
  '[][__proto__][x]',
];

/** Names whose only purpose is to reach a prototype or a kernel switch. */
export const SPECIAL_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'constructor[prototype]',
  'constructor[prototype][polluted]',
  '__proto__[polluted]',
  'hasOwnProperty',
  'toString',
  'valueOf',
  'length',
  'page',
  'per_page',
  'sudo',
  'private_token',
  'access_token',
  'pagination',
  'cursor',
  'order_by',
  'sort',
  'id',
  '',
  '[]',
  '[x]',
  '%00',
  'a%00b',
  '%FF',
  'a.b',
  'a b',
];

export function parameterName(declared: readonly string[], known: readonly string[]): fc.Arbitrary<string> {
  const base = fc.oneof(
    { weight: declared.length > 0 ? 5 : 0, arbitrary: fc.constantFrom(...(declared.length > 0 ? declared : ['x'])) },
    { weight: 2, arbitrary: fc.constantFrom(...SPECIAL_NAMES) },
    { weight: 1, arbitrary: fc.constantFrom(...known) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
  const deep = fc.integer({ min: 2, max: 40 }).map((depth) => '[a]'.repeat(depth));
  const suffix = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...NAME_SUFFIXES) }, { weight: 1, arbitrary: deep });
  return fc.tuple(base, suffix).map(([name, tail]) => name + tail);
}

export function pairs(name: fc.Arbitrary<string>, value: fc.Arbitrary<TextValue>): fc.Arbitrary<Pair[]> {
  const pair = fc.tuple(name, fc.option(value, { freq: 8 })) as fc.Arbitrary<Pair>;
  // A repeated name (scalar, then array or hash under the same name) is a case of its own.
  const duplicated = fc.tuple(name, value, value, fc.constantFrom('', '[]', '[x]')).map(([n, a, b, tail]): Pair[] => [
    [n, a],
    [n + tail, b],
  ]);
  return fc.tuple(fc.array(pair, { maxLength: 6 }), fc.option(duplicated, { freq: 3 })).map(([list, dup]) => (dup ? [...list, ...dup] : list));
}

/** Values that pass most fields: ids, booleans, small numbers, refs and plain words. */
const PLAUSIBLE = ['true', 'false', '1', '30', 'fuzz', 'fuzz value', 'private', 'main', '*', '0 1 * * *', 'api', 'env_var', '2030-01-01'];

/**
 * Most declared names once with a plausible value, and at most one hostile change: a
 * declared name with a hostile value (perhaps as an array or hash) or a hostile pair.
 * Such requests pass validation often enough to reach the handlers.
 */
export function declaredPairs(declared: readonly string[], known: readonly string[], real: readonly string[]): fc.Arbitrary<Pair[]> {
  if (declared.length === 0) return pairs(parameterName(declared, known), textValue(real));
  const values = plausibleValues(declared, real);
  const change = fc.oneof(
    fc.constant(null),
    fc.record({ index: fc.nat(declared.length - 1), value: textValue(real), suffix: fc.constantFrom('', '', '[]', '[x]') }),
    fc.tuple(parameterName(declared, known), textValue(real)).map((pair) => ({ pair })),
  );
  return fc.tuple(values, change).map(([chosen, hostile]) => {
    const list = declared.flatMap((name, index): Pair[] => (chosen[index] ? [[name, chosen[index]]] : []));
    if (hostile && 'pair' in hostile) list.push(hostile.pair as Pair);
    else if (hostile) list.push([declared[hostile.index]! + hostile.suffix, hostile.value]);
    return list;
  });
}

/** A plausible value or none for each declared name: a third of the names stay out, so that optional fields of other types do not spoil every request. */
function plausibleValues(declared: readonly string[], real: readonly string[]): fc.Arbitrary<(TextValue | null)[]> {
  const plausible = fc.constantFrom(...PLAUSIBLE, ...real).map((text): TextValue => ({ text }));
  return fc.tuple(...declared.map(() => fc.option(plausible, { freq: 2, nil: null })));
}

/** Integers at and just past the ends of a 4-byte column and of the doubles that hold integers exactly. */
export const INTEGER_BOUNDS = [2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, 2 ** 53 - 1, 2 ** 53 + 1, -(2 ** 53) - 1] as const;

/** A value that passes a field of this description, as form text; null for fields better left out (files, hashes). */
function validText(field: DescribedField | undefined, real: readonly string[]): string | null {
  switch (field?.type) {
    case undefined:
      return real[0] ?? 'fuzz';
    case 'string':
      return 'fuzz';
    case 'integer':
      return String(Math.min(Math.max(1, field.range.min), field.range.max));
    case 'boolean':
      return 'true';
    case 'datetime':
    case 'date':
      return '2030-01-01';
    case 'values':
      return String(field.values[0]);
    default:
      return null;
  }
}

/**
 * Every required field with a value that passes it, each optional one sometimes, and one
 * integer field at a bound: as a JSON number, as form text, or as a one-item list. Such
 * requests reach the handlers with a value no column holds (an iid, an id, a limit).
 */
export function integerBoundBody(fields: Readonly<Record<string, DescribedField | undefined>>, real: readonly string[], json = true): fc.Arbitrary<Body> {
  const names = Object.keys(fields);
  const integers = names.filter((name) => {
    const field = fields[name];
    return field?.type === 'integer' || (field?.type === 'array' && field.items?.type === 'integer');
  });
  return fc
    .record({
      kept: fc.tuple(...names.map((name) => (fields[name]?.required ? fc.constant(true) : fc.boolean()))),
      field: fc.constantFrom(...integers),
      bound: fc.constantFrom(...INTEGER_BOUNDS),
      as: json ? fc.constantFrom('json' as const, 'form' as const, 'list' as const) : fc.constantFrom('form' as const, 'list' as const),
    })
    .map(({ kept, field, bound, as }): Body => {
      const others = names.flatMap((name, index): [string, string][] => {
        const text = kept[index] && name !== field ? validText(fields[name], real) : null;
        if (text === null) return [];
        return [[fields[name]?.type === 'array' ? `${name}[]` : name, text]];
      });
      const list = as === 'list' || fields[field]?.type === 'array';
      if (as === 'json') {
        const entries = others.map(([name, text]): [string, JsonValue] => [
          name.replace('[]', ''),
          name.endsWith('[]') ? { list: [{ scalar: text }] } : { scalar: text },
        ]);
        return {
          kind: 'json',
          value: { entries: [...entries, [field, list ? { list: [{ scalar: bound }] } : { scalar: bound }]] },
          contentType: 'application/json',
        };
      }
      const pairs: Pair[] = others.map(([name, text]) => [name, { text }]);
      return { kind: 'form', pairs: [...pairs, [list ? `${field}[]` : field, { text: String(bound) }]], contentType: 'application/x-www-form-urlencoded' };
    });
}

/** Hostile pairs, or (half the time, when the route declares params) all declared names first. */
export function inputPairs(declared: readonly string[], known: readonly string[], real: readonly string[]): fc.Arbitrary<Pair[]> {
  const hostile = pairs(parameterName(declared, known), textValue(real));
  return declared.length === 0 ? hostile : fc.oneof(hostile, declaredPairs(declared, known, real));
}

const JSON_NUMBERS = [0, -1, 1.5, -0, 1e308, -1e308, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e-320, 123456789012345680000];

export function jsonValue(declared: readonly string[], real: readonly string[]): fc.Arbitrary<JsonValue> {
  const key = fc.oneof(
    { weight: declared.length > 0 ? 4 : 0, arbitrary: fc.constantFrom(...(declared.length > 0 ? declared : ['x'])) },
    { weight: 2, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'polluted', 'toString', '', 'key', 'value', 'name') },
    { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
  );
  const scalar: fc.Arbitrary<JsonValue> = fc.oneof(
    fc.constantFrom(true, false, null, ...JSON_NUMBERS).map((scalar) => ({ scalar })),
    fc.constantFrom(...real).map((scalar) => ({ scalar })),
    plainText.map((scalar) => ({ scalar })),
    fc.integer().map((scalar) => ({ scalar })),
    hugeText,
    fc.record({ deep: fc.constantFrom('list' as const, 'hash' as const), depth: fc.integer({ min: 50, max: 5_000 }) }),
  );
  const { tree } = fc.letrec<{ tree: JsonValue }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      scalar,
      fc.array(tie('tree'), { maxLength: 4 }).map((list) => ({ list })),
      fc.array(fc.tuple(key, tie('tree')), { maxLength: 5 }).map((entries) => ({ entries })),
    ),
  }));
  return tree;
}

/** The top of a JSON body: mostly a hash of declared names, sometimes anything at all. */
export function jsonBody(declared: readonly string[], real: readonly string[]): fc.Arbitrary<JsonValue> {
  const value = jsonValue(declared, real);
  const name = fc.oneof(
    { weight: declared.length > 0 ? 5 : 0, arbitrary: fc.constantFrom(...(declared.length > 0 ? declared : ['x'])) },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'sudo', 'page', 'per_page') },
  );
  return fc.oneof({ weight: 4, arbitrary: fc.array(fc.tuple(name, value), { maxLength: 6 }).map((entries) => ({ entries })) }, { weight: 1, arbitrary: value });
}

/** Pairs as a JSON hash; raw (percent-encoded) values become their text. */
function asJsonEntries(list: Pair[]): JsonValue {
  return {
    entries: list.map(([name, value]): [string, JsonValue] => [
      name,
      value === null ? { scalar: null } : 'raw' in value ? { scalar: value.raw } : 'huge' in value ? value : { scalar: value.text },
    ]),
  };
}

/** JSON bodies that are not JSON, or JSON no parser should trust. */
const JSON_TEXTS = [
  '',
  '{',
  '}',
  '{"a":',
  '[1,2',
  'null',
  '"text"',
  '123',
  '[]',
  'true',
  '\uFEFF{}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '{"a":{"__proto__":{"polluted":1}}}',
  'NaN',
  '{"a":1e999}',
  '{"a":-1e999}',
  '{"a":1,"a":[],"a":{}}',
  "{'a':1}",
  '{"a":01}',
  '{"a":.5}',
  '{"a":"\u0000"}',
  '\u0000',
  '{"a":"\\x41"}',
  '{a:1}',
  '['.repeat(100_000),
  '{"a":'.repeat(20_000),
];

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'text/plain',
  '',
  'application/xml',
  'image/png',
  'application/vnd.api+json',
  'application/json; charset=utf-16',
  'application/x-www-form-urlencoded; charset=iso-8859-1',
  'multipart/form-data; boundary=',
  ';;;',
  'application/',
  'APPLICATION/JSON',
  'application/octet-stream',
  'text/json',
  `application/${'x'.repeat(5000)}`,
];

export const contentType = fc.constantFrom(...CONTENT_TYPES);

export function body(declared: readonly string[], known: readonly string[], real: readonly string[]): fc.Arbitrary<Body> {
  const name = parameterName(declared, known);
  const value = textValue(real);
  const formType = fc.oneof({ weight: 4, arbitrary: fc.constant('application/x-www-form-urlencoded') }, { weight: 1, arbitrary: contentType });
  const jsonType = fc.oneof({ weight: 4, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: contentType });
  const part: fc.Arbitrary<MultipartPart> = fc.record(
    {
      name,
      value,
      filename: fc.constantFrom('file.txt', '', '../../etc/passwd', 'a\u0000b', '"', 'é.bin'),
      contentType: fc.constantFrom('text/plain', 'application/octet-stream', '', 'multipart/mixed'),
    },
    { requiredKeys: ['name', 'value'] },
  );
  return fc.oneof(
    fc.constant<Body>({ kind: 'none' }),
    fc.record({ kind: fc.constant('form' as const), pairs: inputPairs(declared, known, real), contentType: formType }),
    fc.record({ kind: fc.constant('json' as const), value: jsonBody(declared, real), contentType: jsonType }),
    fc.record({ kind: fc.constant('json' as const), value: declaredPairs(declared, known, real).map(asJsonEntries), contentType: jsonType }),
    fc.record({ kind: fc.constant('json-text' as const), text: fc.constantFrom(...JSON_TEXTS), contentType: jsonType }),
    fc.record({
      kind: fc.constant('multipart' as const),
      parts: fc.array(part, { maxLength: 5 }),
      keep: fc.oneof({ weight: 3, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.double({ min: 0, max: 1, noNaN: true }) }),
      boundary: fc.constantFrom('right' as const, 'right' as const, 'missing' as const, 'wrong' as const),
      closed: fc.boolean(),
    }),
    fc.record({
      kind: fc.constant('bytes' as const),
      bytes: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 64 }),
      contentType,
    }),
  );
}

/** A path segment: a real id or path (already encoded) most of the time, else something hostile. */
export function pathValue(real: readonly string[]): fc.Arbitrary<TextValue> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...real).map((raw) => ({ raw })) },
    { weight: 3, arbitrary: plainText.filter((text) => !mayNameSeededRecord(text)).map((text) => ({ text })) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_TEXTS.filter((text) => !mayNameSeededRecord(decodeSafely(text)))).map((raw) => ({ raw })) },
    { weight: 1, arbitrary: hugeText },
  );
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Percent-encodes as UTF-8; a lone surrogate becomes U+FFFD instead of throwing. */
export const encodeSegment = (text: string): string => encodeURIComponent(text.replace(LONE_SURROGATE, '\uFFFD'));

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
