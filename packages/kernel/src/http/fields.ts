/**
 * Input fields with GitLab's (Grape's) coercion rules, as valibot schemas.
 * Each failing field reports the suffix Grape uses ("is invalid", "is missing", ...);
 * the kernel prefixes the parameter name when it renders the error.
 */
import * as v from 'valibot';
import { CHOSEN_IID, INTEGER_COLUMN, type IntegerRange } from '../db/values.js';
import type { UploadedFile } from './uploaded-file.js';

const INVALID = Symbol('invalid');
/** A value of the right type that its field's range leaves out. */
const OUT_OF_RANGE = Symbol('out of range');
type Coerced<T> = T | typeof INVALID | typeof OUT_OF_RANGE;

export const MESSAGES = {
  missing: 'is missing',
  empty: 'is empty',
  invalid: 'is invalid',
  values: 'does not have a valid value',
  notAllowed: 'has a value not allowed',
} as const;

type Field<T> = v.GenericSchema<unknown, T>;

/** A required field: absent or null gives "is missing"; a failed coercion gives `message`. */
function coerced<T>(coerce: (value: unknown) => Coerced<T>, message: string = MESSAGES.invalid): Field<T> {
  return v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      if (dataset.value === undefined || dataset.value === null) {
        addIssue({ message: MESSAGES.missing });
        return NEVER;
      }
      const result = coerce(dataset.value);
      if (result === INVALID || result === OUT_OF_RANGE) {
        addIssue({ message: result === INVALID ? message : MESSAGES.values });
        return NEVER;
      }
      return result;
    }),
  ) as unknown as Field<T>;
}

const TRUE_WORDS = new Set(['1', 'on', 'On', 'ON', 't', 'true', 'True', 'TRUE', 'T', 'y', 'yes', 'Yes', 'YES', 'Y']);
const FALSE_WORDS = new Set(['0', 'off', 'Off', 'OFF', 'f', 'false', 'False', 'FALSE', 'F', 'n', 'no', 'No', 'NO', 'N']);
const INTEGER_TEXT = /^\s*[-+]?\d+\s*$/;

const isScalar = (value: unknown) => typeof value !== 'object' || value === null;

export function coerceBoolean(value: unknown): Coerced<boolean> {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : INVALID;
  if (typeof value !== 'string') return INVALID;
  if (TRUE_WORDS.has(value)) return true;
  if (FALSE_WORDS.has(value)) return false;
  return INVALID;
}

export function coerceInteger(value: unknown): Coerced<number> {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : INVALID;
  if (typeof value === 'string' && INTEGER_TEXT.test(value)) {
    const parsed = Number.parseInt(value, 10);
    return Number.isSafeInteger(parsed) ? parsed : INVALID;
  }
  return INVALID;
}

function coerceString(value: unknown): Coerced<string> {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return INVALID;
}

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i;

export function coerceDatetime(value: unknown): Coerced<Date> {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? INVALID : value;
  if (typeof value !== 'string' || !ISO_DATETIME.test(value.trim())) return INVALID;
  const text = value.trim();
  // A datetime with no zone is UTC, as Ruby's DateTime.parse reads it.
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(text) || text.length === 10 ? text : `${text}Z`;
  const date = new Date(text.length === 10 ? `${text}T00:00:00Z` : zoned.replace(' ', 'T'));
  return Number.isNaN(date.getTime()) ? INVALID : date;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
function coerceDate(value: unknown): Coerced<string> {
  if (typeof value !== 'string') return INVALID;
  const match = DATE_ONLY.exec(value.trim());
  if (!match) return INVALID;
  const date = new Date(`${match[0]}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== match[0] ? INVALID : match[0];
}

/**
 * What a field takes, for tools that read a route table (the route fuzzer, API
 * descriptions): kept beside each field the kernel builds, and found through the pipes
 * plugins wrap around them (`v.pipe(f.string(), v.check(...))` is a string).
 */
export type FieldDescription =
  | { type: 'string' | 'boolean' | 'datetime' | 'date' | 'file' }
  | { type: 'integer'; range: IntegerRange }
  | { type: 'values'; values: readonly (string | number)[] }
  | { type: 'array'; items: FieldDescription | undefined; commaSeparated: boolean }
  | { type: 'hash'; entries: Readonly<Record<string, DescribedField | undefined>> };
/** A field's description, whether a request must send it, and the value an absent optional field takes. */
export type DescribedField = FieldDescription & { required: boolean; default?: unknown };

const DESCRIPTIONS = new WeakMap<object, FieldDescription>();
const OPTIONAL = new WeakSet<object>();
const FALLBACKS = new WeakMap<object, unknown>();

function described<F extends object>(field: F, description: FieldDescription | undefined): F {
  if (description) DESCRIPTIONS.set(field, description);
  return field;
}

/** The description of a field, or undefined for a schema the kernel did not build (and that wraps none it did). */
export function describeField(field: unknown): DescribedField | undefined {
  let schema = field as { pipe?: readonly unknown[]; wrapped?: unknown } | null;
  const required = !(typeof field === 'object' && field !== null && OPTIONAL.has(field));
  const fallback = typeof field === 'object' && field !== null && FALLBACKS.has(field) ? { default: FALLBACKS.get(field) } : {};
  while (typeof schema === 'object' && schema !== null) {
    const description = DESCRIPTIONS.get(schema);
    if (description) return { ...description, required, ...fallback };
    schema = (schema.pipe?.[0] ?? schema.wrapped) as typeof schema;
  }
  return undefined;
}

/** The range of an integer field (or of a list of integers, or an optional one); undefined for other fields. */
export function integerRange(field: unknown): IntegerRange | undefined {
  const description = describeField(field);
  if (description?.type === 'integer') return description.range;
  if (description?.type === 'array' && description.items?.type === 'integer') return description.items.range;
  return undefined;
}

/** Fields of non-string types: Grape turns "" into nil for them. */
const BLANK_IS_NULL = new WeakSet<object>();
/** Array fields: GitLab turns nil into [] for them. */
const NULL_IS_EMPTY = new WeakSet<object>();

function nonString<T>(coerce: (value: unknown) => Coerced<T>, message?: string): Field<T> {
  const inner = coerced(coerce, message);
  const field = v.pipe(
    v.unknown(),
    v.transform((value) => (value === '' ? null : value)),
    inner,
  ) as unknown as Field<T>;
  BLANK_IS_NULL.add(field);
  return field;
}

/**
 * What Grape reports for a required field that is absent: every validator of the field
 * runs, so a value list adds "does not have a valid value" and `allow_blank: false` adds "is empty".
 */
const WHEN_MISSING = new WeakMap<object, readonly string[]>();
export const messagesWhenMissing = (field: unknown): readonly string[] =>
  (typeof field === 'object' && field !== null && WHEN_MISSING.get(field)) || [MESSAGES.missing];

export const string = () => described(coerced(coerceString), { type: 'string' });
/** A string that may not be blank (Grape's `allow_blank: false`); absent, it is both missing and empty. */
export function nonBlankString(): Field<string> {
  const field = v.pipe(
    string(),
    v.check((s) => s.trim() !== '', MESSAGES.empty),
  ) as unknown as Field<string>;
  WHEN_MISSING.set(field, [MESSAGES.missing, MESSAGES.empty]);
  return field;
}
/**
 * An integer within `range`: by default what an `integer` column holds on both engines
 * (PostgreSQL's 4-byte integer), so no value a column cannot store reaches a query or a
 * write. Outside the range it "does not have a valid value", as Grape says of a value
 * outside a declared range. A field stored in a `bigint` column takes `bigInteger()`.
 */
export function integer(range: IntegerRange = INTEGER_COLUMN): Field<number> {
  const field = nonString((value) => {
    const number = coerceInteger(value);
    if (typeof number !== 'number') return number;
    return number >= range.min && number <= range.max ? number : OUT_OF_RANGE;
  });
  return described(field, { type: 'integer', range });
}
const SAFE_INTEGERS: IntegerRange = Object.freeze({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
/** An integer stored in a `bigint` column: any safe integer. */
export const bigInteger = () => integer(SAFE_INTEGERS);
/**
 * An integer that names a record to look up (`user_id`, `milestone_id`, a filter's ids), never
 * stored as given: one that no id column holds finds nothing, so the answer is GitLab's 404
 * or an empty list rather than a 400 (the kernel's reads match no row for it on both engines).
 */
export const id = () => integer(SAFE_INTEGERS);
/** An internal id (`iid`) a caller chooses: positive, and leaving room for the ids counted after it. */
export const chosenIid = () => integer(CHOSEN_IID);
export const boolean = () => described(nonString(coerceBoolean), { type: 'boolean' });
export const datetime = () => described(nonString(coerceDatetime), { type: 'datetime' });
export const date = () => described(nonString(coerceDate), { type: 'date' });

/** A file from a multipart body, on a route with `uploads: true`; anything else "is invalid". */
export const file = () =>
  described(
    coerced<UploadedFile>((value) =>
      typeof value === 'object' && value !== null && typeof (value as UploadedFile).path === 'string' && typeof (value as UploadedFile).size === 'number'
        ? (value as UploadedFile)
        : INVALID,
    ),
    { type: 'file' },
  );

/**
 * A multipart file part or a plain string (Grape's `types: [File, String]`), for a value a
 * client may upload or inline, such as a PEM certificate.
 */
export const fileOrString = () =>
  described(
    coerced<UploadedFile | string>((value) => {
      if (typeof value === 'object' && value !== null && typeof (value as UploadedFile).path === 'string' && typeof (value as UploadedFile).size === 'number') {
        return value as UploadedFile;
      }
      return coerceString(value);
    }),
    { type: 'string' },
  );

/** A value from a fixed list: "does not have a valid value", which Grape reports for a missing one too. */
export function values<T extends string | number>(allowed: readonly T[], base?: Field<T>): Field<T> {
  const inner = base ?? (string() as unknown as Field<T>);
  const field = v.pipe(
    inner,
    v.check((value) => allowed.includes(value), MESSAGES.values),
  ) as unknown as Field<T>;
  WHEN_MISSING.set(field, [MESSAGES.missing, MESSAGES.values]);
  return described(field, { type: 'values', values: allowed });
}

/** An array param: `a[]=x&a[]=y` or a JSON array. A bare scalar is invalid; null is []. */
export function array<T>(item: Field<T>): Field<T[]> {
  const field = v.pipe(
    v.unknown(),
    v.transform((value) => (value === null || value === '' ? [] : value)),
    v.custom<unknown[]>((value) => Array.isArray(value), MESSAGES.invalid),
    v.array(item),
  ) as unknown as Field<T[]>;
  NULL_IS_EMPTY.add(field);
  if (WHEN_MISSING.has(item)) WHEN_MISSING.set(field, WHEN_MISSING.get(item)!);
  return described(field, { type: 'array', items: describeField(item), commaSeparated: false });
}

/** An array that also accepts `a,b` and splits array elements that contain commas. */
export function commaList<T = string>(item?: Field<T>): Field<T[]> {
  const split = (value: unknown): unknown => {
    if (value === null || value === undefined) return [];
    const parts = Array.isArray(value) ? value : isScalar(value) ? [value] : null;
    if (!parts) return value;
    return parts
      .flatMap((part) => (typeof part === 'string' ? part.split(',') : [part]))
      .map((part) => (typeof part === 'string' ? part.trim() : part))
      .filter((part) => part !== '');
  };
  const field = v.pipe(
    v.unknown(),
    v.transform(split),
    v.custom<unknown[]>((value) => Array.isArray(value), MESSAGES.invalid),
    v.array(item ?? (string() as unknown as Field<T>)),
  ) as unknown as Field<T[]>;
  NULL_IS_EMPTY.add(field);
  return described(field, { type: 'array', items: describeField(item ?? string()), commaSeparated: true });
}

/** A nested hash such as `filter[environment_scope]=x` (undeclared keys dropped). */
export function hash<E extends v.ObjectEntries>(entries: E) {
  const field = v.pipe(
    v.unknown(),
    v.custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), MESSAGES.invalid),
    v.object(entries),
  );
  return described(field, { type: 'hash', entries: Object.fromEntries(Object.entries(entries).map(([name, entry]) => [name, describeField(entry)])) });
}

/**
 * An optional field; `fallback` fills in when it is absent, as Grape's `default:`.
 * An explicit null (or "" for a non-string type) stays null, so handlers can tell
 * "clear this" from "leave it"; array fields still turn null into [].
 */
export function optional<T>(field: Field<T>): v.GenericSchema<unknown, T | null | undefined>;
export function optional<T>(field: Field<T>, fallback: T): v.GenericSchema<unknown, T | null>;
export function optional<T>(field: Field<T>, fallback?: T) {
  const blankIsNull = BLANK_IS_NULL.has(field);
  const nullIsEmpty = NULL_IS_EMPTY.has(field);
  const inner = v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const value = blankIsNull && dataset.value === '' ? null : dataset.value;
      if (value === null && !nullIsEmpty) return null;
      const result = v.safeParse(field, value);
      if (result.success) return result.output;
      for (const issue of result.issues) {
        // Re-added issues lose their type, so a nested absent key must be named here.
        const missing = issue.type === 'object' && issue.input === undefined && (issue.path?.length ?? 0) > 0;
        addIssue({ message: missing ? MESSAGES.missing : issue.message, path: issue.path as never });
      }
      return NEVER;
    }),
  );
  const optionalField = described(v.optional(inner, fallback as never), describeField(field));
  OPTIONAL.add(optionalField);
  if (fallback !== undefined) FALLBACKS.set(optionalField, fallback);
  return optionalField;
}

export type InputOf<S> = S extends v.GenericSchema<unknown, infer O> ? O : never;
