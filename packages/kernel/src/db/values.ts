/** Record ids as both engines hold them. */

/** The largest id an `increments` column holds on both engines (PostgreSQL's `integer`). */
export const MAX_RECORD_ID = 2_147_483_647;

/**
 * The id in `value` (a number or decimal text) if a record could have it, else null.
 * Look a null up as "no such record": PostgreSQL answers a larger number compared with
 * an id column with an error, not with no rows.
 */
export function recordId(value: unknown): number | null {
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\+?\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  return Number.isInteger(id) && id >= 1 && id <= MAX_RECORD_ID ? id : null;
}
