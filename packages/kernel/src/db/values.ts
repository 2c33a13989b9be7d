/** Record ids as both engines hold them. */

import { conflict } from '../http/errors.js';

/** A closed range of integers. */
export interface IntegerRange {
  readonly min: number;
  readonly max: number;
}

/** What an `integer` column holds on both engines (PostgreSQL's 4-byte `integer`). */
export const INTEGER_COLUMN: IntegerRange = Object.freeze({ min: -2_147_483_648, max: 2_147_483_647 });

/** The largest id an `increments` column holds on both engines (PostgreSQL's `integer`). */
export const MAX_RECORD_ID = INTEGER_COLUMN.max;

/**
 * The largest internal id (`iid`) a caller may choose. Internal ids count up from the
 * largest one taken, so a chosen iid at the column's end would leave a project (or group)
 * no iid to give the next record: a chosen one stays below this, leaving room for over
 * 147 million more.
 */
export const MAX_CHOSEN_IID = 2_000_000_000;

/** A chosen iid: a positive integer up to `MAX_CHOSEN_IID`. */
export const CHOSEN_IID: IntegerRange = Object.freeze({ min: 1, max: MAX_CHOSEN_IID });

/**
 * The internal id after `last` (the largest taken, or null for none). Past the column's
 * range it is a 409 naming what ran out, never a write the database refuses.
 */
export function nextInternalId(last: number | null | undefined, what: string): number {
  const next = (last ?? 0) + 1;
  if (next > MAX_RECORD_ID) throw conflict(`${what} internal ids are exhausted`);
  return next;
}

/**
 * The id in `value` (a number or decimal text) if a record could have it, else null.
 * Look a null up as "no such record": PostgreSQL answers a larger number compared with
 * an id column with an error, not with no rows.
 */
export function recordId(value: unknown): number | null {
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\+?\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  return Number.isInteger(id) && id >= 1 && id <= MAX_RECORD_ID ? id : null;
}
