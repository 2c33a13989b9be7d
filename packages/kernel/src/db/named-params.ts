/**
 * Statements built once and run many times: a knex builder receives stand-ins for its named
 * parameters (`p.id`, `p.limit`) and the compiled bindings are mapped back to names; SQL
 * written around them quotes its identifiers here.
 */
import type { Knex } from '@mikro-orm/knex';

/**
 * Stand-ins for named parameters while a statement is built: positive safe integers,
 * because knex accepts only integers in `limit`, and no real constant comes this close to
 * Number.MAX_SAFE_INTEGER.
 */
const PARAM_BASE = Number.MAX_SAFE_INTEGER - 1_000_000;

/** `name` as an SQL identifier, the same on both engines (`"a""b"`). */
export const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

export interface NamedStatement {
  readonly sql: string;
  /** The statement's bindings: each named parameter from `values`, each constant as compiled. */
  bindings(values: Readonly<Record<string, unknown>>): Knex.Value[];
}

/**
 * `lists` names the parameters that stand for lists, with their lengths: the builder gets an
 * array of that many stand-ins for each (`whereIn('id', p.ids)`), and `bindings` takes the
 * list's items from the value of that name.
 */
export function compileNamed(
  build: (params: Record<string, never>) => { toSQL(): { sql: string; bindings: readonly unknown[] } },
  lists: ReadonlyMap<string, number> = new Map(),
): NamedStatement {
  const slots: { name: string; item?: number }[] = [];
  const standIn = (slot: { name: string; item?: number }) => PARAM_BASE + slots.push(slot) - 1;
  const scalars = new Map<string, number>();
  const arrays = new Map<string, number[]>();
  const params = new Proxy({} as Record<string, never>, {
    get(_target, name) {
      if (typeof name !== 'string') return undefined;
      const length = lists.get(name);
      if (length !== undefined) {
        let items = arrays.get(name);
        if (!items) arrays.set(name, (items = Array.from({ length }, (_, item) => standIn({ name, item }))));
        return items;
      }
      let value = scalars.get(name);
      if (value === undefined) scalars.set(name, (value = standIn({ name })));
      return value;
    },
  });
  const compiled = build(params).toSQL();
  const bound = compiled.bindings.map((value): { slot: { name: string; item?: number } } | { value: unknown } => {
    const index = typeof value === 'number' ? value - PARAM_BASE : -1;
    return index >= 0 && index < slots.length ? { slot: slots[index]! } : { value };
  });
  return {
    sql: compiled.sql,
    bindings: (values) =>
      bound.map((entry) => {
        if ('value' in entry) return entry.value;
        const given = values[entry.slot.name];
        return entry.slot.item === undefined ? given : (given as readonly unknown[])[entry.slot.item];
      }) as Knex.Value[],
  };
}

/** The list parameters among `values` and their lengths: what a statement built with them depends on. */
export function listLengths(values: Readonly<Record<string, unknown>>): Map<string, number> {
  const lists = new Map<string, number>();
  for (const name in values) {
    const value = values[name];
    if (Array.isArray(value)) lists.set(name, value.length);
  }
  return lists;
}
