/**
 * Rows as their entity describes them. A query's columns become the entity's
 * properties, and each value becomes its JavaScript type, the same on both engines:
 * SQLite gives booleans as 0/1 and datetimes as epoch numbers, PostgreSQL (through
 * MikroORM's pg settings) gives datetimes, dates and bigints as text.
 */
import type { EntityMetadata, EntityProperty, EntitySchema, MikroORM } from '@mikro-orm/core';

type Decode = (value: unknown) => unknown;

const toBoolean: Decode = (value) =>
  value === null || value === undefined ? value : value === true || value === 1 || value === '1' || value === 't' || value === 'true';

/** A datetime: epoch milliseconds (SQLite), `2026-01-02 03:04:05.678+00` text (PostgreSQL), or a Date. */
const toDate: Decode = (value) => {
  if (value === null || value === undefined || value instanceof Date) return value;
  if (typeof value === 'number' || typeof value === 'bigint') return new Date(Number(value));
  const text = String(value);
  if (/^\d+$/.test(text)) return new Date(Number(text));
  let iso = text.replace(' ', 'T');
  if (/[+-]\d{2}$/.test(iso)) iso += ':00';
  else if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(iso)) iso += 'Z';
  return new Date(iso);
};

/** A date-only column, kept as `YYYY-MM-DD`. */
const toDay: Decode = (value) => {
  if (value === null || value === undefined) return value;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value).slice(0, 10);
};

const toNumber: Decode = (value) => (value === null || value === undefined || typeof value === 'number' ? value : Number(value));

const toJson: Decode = (value) => (typeof value === 'string' ? (value === '' ? null : JSON.parse(value)) : value);

/** Decoders of computed values (aggregates, distinct values, unions), by the kind a read names. */
export const valueDecoders = {
  number: toNumber,
  string: (value: unknown) => (value === null || value === undefined ? value : String(value)),
  boolean: toBoolean,
  date: toDate,
  day: toDay,
} as const;

function decoderOf(property: EntityProperty): Decode | null {
  const type = String(property.type ?? '').toLowerCase();
  const runtime = String(property.runtimeType ?? '').toLowerCase();
  if (runtime === 'boolean' || type === 'boolean') return toBoolean;
  if (runtime === 'date' || type === 'datetime' || type === 'datetimetype') return toDate;
  if (type === 'date' || type === 'datetype') return toDay;
  if (type === 'json' || type === 'jsontype') return toJson;
  if (runtime === 'number' || ['integer', 'smallint', 'tinyint', 'bigint', 'double', 'float', 'decimal'].includes(type)) return toNumber;
  return null;
}

interface ColumnCodec {
  property: string;
  decode: Decode | null;
  primary: boolean;
}

/** Column name → property and decoder, for one entity. */
export type EntityCodec = ReadonlyMap<string, ColumnCodec>;

export function codecOf(meta: EntityMetadata): EntityCodec {
  const codec = new Map<string, ColumnCodec>();
  for (const property of Object.values(meta.properties) as EntityProperty[]) {
    const column = property.fieldNames?.[0];
    if (column) codec.set(column, { property: property.name, decode: decoderOf(property), primary: !!property.primary });
  }
  return codec;
}

/** A read with no joined entities. */
export type NoJoins = Record<never, never>;

/** Entities whose rows a query carries besides its main one, each under a key with its columns prefixed. */
export type Joined = Readonly<Record<string, { entity: EntitySchema<any, any>; prefix: string }>>;

/**
 * Builds one row shape per statement: a function that turns a result row (an array of
 * values in column order) into an object of properties, compiled once for the statement's
 * column list, so every object of a statement shares one hidden class.
 */
export function rowShape(columns: readonly string[], main: EntityCodec, joined: readonly { key: string; prefix: string; codec: EntityCodec }[]) {
  const decoders: Decode[] = [];
  const use = (decode: Decode | null, source: string) => {
    if (!decode) return source;
    decoders.push(decode);
    return `d[${decoders.length - 1}](${source})`;
  };
  const top: string[] = [];
  const nested = new Map<string, string[]>(joined.map(({ key }) => [key, []]));
  /** The primary-key value of each joined entity: null when a left join found no row. */
  const presence = new Map<string, string>();
  for (const [index, column] of columns.entries()) {
    const source = `r[${index}]`;
    const join = joined.find(({ prefix }) => column.startsWith(prefix) && main.get(column) === undefined);
    const own = join ? join.codec.get(column.slice(join.prefix.length)) : main.get(column);
    if (join && own) {
      nested.get(join.key)!.push(`${JSON.stringify(own.property)}: ${use(own.decode, source)}`);
      if (own.primary) presence.set(join.key, source);
    } else if (own) {
      top.push(`${JSON.stringify(own.property)}: ${use(own.decode, source)}`);
    } else {
      // Not a column of these entities (an aggregate, a computed value): passed on as it is.
      top.push(`${JSON.stringify(column)}: ${source}`);
    }
  }
  for (const [key, fields] of nested) {
    const object = `{${fields.join(', ')}}`;
    const primary = presence.get(key);
    top.push(`${JSON.stringify(key)}: ${primary ? `${primary} == null ? null : ${object}` : object}`);
  }
  // The keys are the statement's own column names and the entities' property names, JSON-quoted.
  return new Function('d', `return (r) => ({${top.join(', ')}});`)(decoders) as (values: unknown[]) => unknown;
}

/** Entity codecs, built once per entity after the ORM has discovered it. */
export function createCodecs(orm: MikroORM) {
  const codecs = new WeakMap<object, EntityCodec>();
  return (entity: EntitySchema<any, any>): EntityCodec => {
    let codec = codecs.get(entity);
    if (!codec) {
      codec = codecOf(orm.getMetadata().get(entity.meta.className));
      codecs.set(entity, codec);
    }
    return codec;
  };
}
