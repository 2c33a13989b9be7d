/** Grape's `JSON` param type: a hash (or an array of hashes), or a string holding one. */
import * as v from 'valibot';

const isHash = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isParsed = (value: unknown) => isHash(value) || (Array.isArray(value) && value.every(isHash));

function coerceJson(value: unknown): { ok: true; value: unknown } | { ok: false } {
  if (isParsed(value)) return { ok: true, value };
  if (typeof value !== 'string') return { ok: false };
  // Whitespace-only text counts as no value; an empty string fails to parse.
  if (/^\s+$/.test(value)) return { ok: true, value: null };
  try {
    const parsed: unknown = JSON.parse(value);
    return isParsed(parsed) ? { ok: true, value: parsed } : { ok: false };
  } catch {
    return { ok: false };
  }
}

export const json = () =>
  v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      if (dataset.value === undefined || dataset.value === null) {
        addIssue({ message: 'is missing' });
        return NEVER;
      }
      const result = coerceJson(dataset.value);
      if (!result.ok) {
        addIssue({ message: 'is invalid' });
        return NEVER;
      }
      return result.value;
    }),
  ) as unknown as v.GenericSchema<unknown, unknown>;
