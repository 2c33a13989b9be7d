/**
 * Reads over a list of ids (`where id in (…)`), compiled once per list length: a page's
 * related rows come in a few lengths, and building the query with knex costs more than
 * running it.
 */
import type { PreparedRead } from './entity-reads.js';

/** The longest list compiled and kept; longer lists compile on each call. */
const MAX_KEPT_LENGTH = 100;

/** The stand-ins of a list's ids among a prepared read's named parameters, for `whereIn`. */
export type IdList = (params: Record<string, never>) => never[];

/**
 * `compile(ids)` builds the prepared read with one named parameter per id (`ids(p)`, used
 * wherever the list appears); `all(ids, params)` fills them and the read's other names.
 */
export function idListReads<R>(compile: (ids: IdList) => PreparedRead<R, string>) {
  const reads = new Map<number, PreparedRead<R, string>>();
  const listOf =
    (length: number): IdList =>
    (params) =>
      Array.from({ length }, (_, index) => params[`id${index}`]!);
  function readFor(length: number) {
    let read = reads.get(length);
    if (!read) {
      read = compile(listOf(length));
      if (length <= MAX_KEPT_LENGTH) reads.set(length, read);
    }
    return read;
  }
  return {
    all(ids: readonly unknown[], params: Readonly<Record<string, unknown>> = {}): Promise<R[]> {
      const values: Record<string, unknown> = { ...params };
      for (let index = 0; index < ids.length; index++) values[`id${index}`] = ids[index];
      return readFor(ids.length).all(values);
    },
  };
}
