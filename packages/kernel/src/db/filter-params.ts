/**
 * A list filter as named parameters, so that a list statement is compiled once per filter
 * shape: ids, states and other plain values become parameters; what changes the statement's
 * text (which filters are set, the wildcards `none` and `any`, booleans, how many items a list
 * of lists holds) is the shape's key. The kernel compiles one statement per length of each
 * list parameter. Dates, nulls and queries are not parameterised: such a filter gets undefined.
 */
export interface FilterParams<F> {
  /** What the statement's text depends on besides the lengths of the lists. */
  key: string;
  values: Record<string, unknown>;
  /** The filter with the named parameters in the places of its values. */
  standIn(params: Record<string, never>): F;
}

type StandIn = (params: Record<string, never>) => unknown;

/** Words the filters read as wildcards, and booleans: they change the statement, so they are kept as they are. */
const isConstant = (value: unknown) => typeof value === 'boolean' || value === 'none' || value === 'any';
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** A parameter builder for `value` at `name`, or null where a value shapes the statement in ways a parameter cannot stand for. */
function parameterize(value: unknown, name: string, values: Record<string, unknown>, key: string[]): StandIn | null {
  if (isConstant(value)) {
    key.push(`${name}=${String(value)}`);
    return () => value;
  }
  if (typeof value === 'string' || typeof value === 'number') {
    key.push(name);
    values[name] = value;
    return (params) => params[name];
  }
  if (Array.isArray(value)) {
    if (value.every((item) => typeof item === 'number')) {
      key.push(`${name}[]`);
      values[name] = value;
      return (params) => params[name];
    }
    key.push(`${name}[${value.length}]`);
    const items = value.map((item, index) => parameterize(item, `${name}.${index}`, values, key));
    if (items.some((item) => item === null)) return null;
    return (params) => items.map((item) => item!(params));
  }
  if (isPlainObject(value)) {
    const entries: [string, StandIn][] = [];
    for (const [field, fieldValue] of Object.entries(value)) {
      if (fieldValue === undefined) continue;
      const standIn = parameterize(fieldValue, name === '' ? field : `${name}.${field}`, values, key);
      if (!standIn) return null;
      entries.push([field, standIn]);
    }
    return (params) => Object.fromEntries(entries.map(([field, standIn]) => [field, standIn(params)]));
  }
  // Dates, a query of project ids: compiled as they are.
  return null;
}

/** The filter as named parameters, or undefined for one whose statement is built each time (a search, a date, a query of ids). */
export function filterParams<F extends { search?: unknown }>(filter: F): FilterParams<F> | undefined {
  // The search text is escaped for LIKE as the statement is built.
  if (filter.search) return undefined;
  const values: Record<string, unknown> = {};
  const key: string[] = [];
  const standIn = parameterize(filter, '', values, key);
  if (!standIn) return undefined;
  return { key: key.join('|'), values, standIn: (params) => standIn(params) as F };
}
