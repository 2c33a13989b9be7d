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

export function compileNamed(build: (params: Record<string, never>) => { toSQL(): { sql: string; bindings: readonly unknown[] } }): NamedStatement {
  const names: string[] = [];
  const params = new Proxy({} as Record<string, never>, {
    get(_target, name) {
      if (typeof name !== 'string') return undefined;
      let index = names.indexOf(name);
      if (index === -1) index = names.push(name) - 1;
      return PARAM_BASE + index;
    },
  });
  const compiled = build(params).toSQL();
  const slots = compiled.bindings.map((value): { name: string } | { value: unknown } => {
    const index = typeof value === 'number' ? value - PARAM_BASE : -1;
    return index >= 0 && index < names.length ? { name: names[index]! } : { value };
  });
  return {
    sql: compiled.sql,
    bindings: (values) => slots.map((slot) => ('name' in slot ? values[slot.name] : slot.value)) as Knex.Value[],
  };
}
