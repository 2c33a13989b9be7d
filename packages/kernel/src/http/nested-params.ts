/**
 * Query strings and form bodies with Rack's nesting rules, which GitLab's clients
 * rely on: `a[]=x&a[]=y` is an array, `f[k]=v` a hash, and `a[][k]=1&a[][j]=2&a[][k]=3`
 * two hashes (a repeated key starts the next one). Hashes keyed 0, 1, 2 … (from
 * `a[0][k]=v`) become arrays, as clients that index their arrays expect.
 */
import { malformedRequest } from './errors.js';

type Params = Record<string, unknown>;

const MAX_DEPTH = 32;

/**
 * Keys that would reach an object's prototype chain. Input never sets them: every hash
 * built here has no prototype, and these names are dropped wherever they appear.
 */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
export const isForbiddenKey = (key: string) => FORBIDDEN_KEYS.has(key);

/** A hash for input: no prototype, so no input key can reach `Object.prototype`. */
export const newParams = (): Params => Object.create(null) as Params;
/** Plain hashes only: uploaded files (and their Buffers) pass through untouched. */
const isHash = (value: unknown): value is Params =>
  typeof value === 'object' && value !== null && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null);

/** Invalid escapes and invalid UTF-8 are refused, as Rack refuses them. */
function decode(text: string): string {
  const plain = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!plain.includes('%')) return plain;
  try {
    return decodeURIComponent(plain);
  } catch {
    throw malformedRequest();
  }
}

/** Whether `key` (which may itself be nested, `a][b`) is already set in `hash`. */
function hasKey(hash: Params, key: string): boolean {
  if (key.includes('[]')) return false;
  let current: unknown = hash;
  for (const part of key.split(/[[\]]+/)) {
    if (part === '') continue;
    if (!isHash(current) || !Object.hasOwn(current, part)) return false;
    current = current[part];
  }
  return true;
}

function normalize(params: Params, name: string, value: unknown, depth: number): Params {
  if (depth <= 0) throw new RangeError('params are nested too deeply');
  const match = /^[[\]]*([^[\]]+)\]*/.exec(name);
  const key = match?.[1] ?? '';
  if (key === '') return params;
  const after = name.slice(match![0].length);
  if (name.split(/[[\]]+/).some(isForbiddenKey)) return params;
  if (after === '') {
    params[key] = value;
  } else if (after === '[') {
    params[name] = value;
  } else if (after === '[]') {
    const list = (Array.isArray(params[key]) ? params[key] : (params[key] = [])) as unknown[];
    list.push(value);
  } else if (after.startsWith('[]')) {
    const child = /^\[\]\[([^[\]]+)\]$/.exec(after)?.[1] ?? after.slice(2);
    const list = (Array.isArray(params[key]) ? params[key] : (params[key] = [])) as unknown[];
    const last = list[list.length - 1];
    if (isHash(last) && !hasKey(last, child)) normalize(last, child, value, depth - 1);
    else list.push(normalize(newParams(), child, value, depth - 1));
  } else {
    const child = isHash(params[key]) ? params[key] : newParams();
    params[key] = normalize(child, after, value, depth - 1);
  }
  return params;
}

/** `{ "0": a, "1": b }` → `[a, b]`, all the way down. */
function indexedToArrays(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(indexedToArrays);
  if (!isHash(value)) return value;
  const keys = Object.keys(value);
  const indexed = keys.length > 0 && keys.every((k) => /^\d+$/.test(k));
  if (indexed) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((k) => indexedToArrays(value[k]));
  }
  for (const k of keys) value[k] = indexedToArrays(value[k]);
  return value;
}

export function parseNestedParams(text: string, maxPairs = 10_000): Params {
  const params = newParams();
  if (!text) return params;
  let pairs = 0;
  for (const part of text.split(/[&;]/)) {
    if (part === '') continue;
    if (++pairs > maxPairs) throw new RangeError('too many params');
    const equals = part.indexOf('=');
    const name = decode(equals === -1 ? part : part.slice(0, equals));
    const value = equals === -1 ? null : decode(part.slice(equals + 1));
    normalize(params, name, value, MAX_DEPTH);
  }
  return indexedToArrays(params) as Params;
}

/** Nested params from name/value pairs (multipart text fields). */
export function nestPairs(pairs: [string, unknown][]): Params {
  const params = newParams();
  for (const [name, value] of pairs) normalize(params, name, value, MAX_DEPTH);
  return indexedToArrays(params) as Params;
}
