import { today } from '../text/today.js';

/**
 * What reading requests read, kept under their change mark (see `requestMark`): a request
 * under the same mark on the same day takes what an earlier one read for the same key instead
 * of reading it again, since nothing was committed since, by any process. A request without a
 * mark reads afresh and keeps nothing. Past `max` keys the memo starts again.
 *
 * `copy` gives the memo and each request a value of its own, for values a caller may change;
 * without it, every request under the mark gets the one kept value.
 */
export function keptUnderMark<T>(
  max: number,
  copy: (value: T) => T = (value) => value,
): (key: string, mark: number | undefined, read: () => Promise<T>) => Promise<T> {
  const kept = new Map<string, { mark: number; day: string; value: T }>();
  return async (key, mark, read) => {
    if (mark === undefined) return read();
    const day = today();
    const found = kept.get(key);
    if (found && found.mark === mark && found.day === day) return copy(found.value);
    const value = await read();
    if (kept.size >= max) kept.clear();
    kept.set(key, { mark, day, value: copy(value) });
    return value;
  };
}
