/** JSON Schemas (as OpenAPI 3.1 takes them) of the fields the kernel's `f.*` types build. */
import type { DescribedField, FieldDescription } from '../http/fields.js';

/** A JSON Schema (2020-12, OpenAPI 3.1's dialect). */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** What any value matches: a field built outside the kernel's types says nothing of itself. */
const ANY: JsonSchema = Object.freeze({});

/** A default as JSON has it (a date as its ISO text); undefined for one JSON cannot write. */
function jsonDefault(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return value;
  if (Array.isArray(value) && value.every((item) => ['string', 'number', 'boolean'].includes(typeof item))) return [...value];
  return undefined;
}

export function fieldSchema(field: (FieldDescription & { default?: unknown }) | undefined): JsonSchema {
  const schema = typeSchema(field);
  const fallback = jsonDefault(field?.default);
  return fallback === undefined ? schema : { ...schema, default: fallback };
}

function typeSchema(field: FieldDescription | undefined): JsonSchema {
  if (!field) return ANY;
  switch (field.type) {
    case 'string':
      return { type: 'string' };
    case 'boolean':
      return { type: 'boolean' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'file':
      return { type: 'string', contentMediaType: 'application/octet-stream' };
    case 'integer':
      return { type: 'integer', minimum: field.range.min, maximum: field.range.max };
    case 'values': {
      const types = [...new Set(field.values.map((value) => (typeof value === 'number' ? 'integer' : 'string')))];
      return { type: types.length === 1 ? types[0] : types, enum: [...field.values] };
    }
    case 'array':
      return { type: 'array', items: fieldSchema(field.items) };
    case 'hash':
      return objectSchema(field.entries);
  }
}

/** An object of named fields, with the ones a request must send listed as required. */
export function objectSchema(fields: Readonly<Record<string, DescribedField | undefined>>): JsonSchema {
  const names = Object.keys(fields);
  const required = names.filter((name) => fields[name]?.required);
  return {
    type: 'object',
    properties: Object.fromEntries(names.map((name) => [name, fieldSchema(fields[name])])),
    ...(required.length > 0 ? { required } : {}),
  };
}
