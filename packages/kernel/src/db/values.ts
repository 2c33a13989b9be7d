/**
 * Reading raw rows the same way on SQLite and PostgreSQL: SQLite gives 0/1 and
 * epoch numbers where PostgreSQL gives booleans and Date objects.
 */

/** A timestamp as GitLab writes it: UTC, milliseconds, `Z`. */
export function toIso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number') return new Date(value).toISOString();
  if (typeof value === 'bigint') return new Date(Number(value)).toISOString();
  const text = String(value);
  if (/^\d+$/.test(text)) return new Date(Number(text)).toISOString();
  // SQLite's own `YYYY-MM-DD HH:MM:SS` is UTC; PostgreSQL text may end in a bare `+00`.
  let iso = text.replace(' ', 'T');
  if (/[+-]\d{2}$/.test(iso)) iso += ':00';
  else if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(iso)) iso += 'Z';
  return new Date(iso).toISOString();
}

export function toBool(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't' || value === 'true';
}

/** A date-only column (stored as `YYYY-MM-DD` text). */
export function toDate(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value).slice(0, 10);
}

export function parseJsonArray<T = string>(value: unknown): T[] {
  if (Array.isArray(value)) return value as T[];
  if (typeof value !== 'string' || value === '') return [];
  return JSON.parse(value) as T[];
}

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
