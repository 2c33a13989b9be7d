/**
 * GitLab's fuzzy title search (`Gitlab::SQL::Pattern`): every word of three or more
 * characters must occur (case-insensitively); a query without such words must match the
 * whole title exactly, ignoring case.
 */
import type { AnyEntity, Conditions, Ref } from '@forgekit/kernel/orm';

export const MIN_PARTIAL_CHARS = 3;

/** Words of the query: `"quoted phrases"` stay whole; short words are dropped. */
export function fuzzyWords(query: string): string[] {
  const words = [...query.matchAll(/"([^"]+)"|(\S+)/g)].map((match) => match[1] ?? match[2]!);
  return words.filter((word) => [...word].length >= MIN_PARTIAL_CHARS);
}

/** Adds GitLab's fuzzy match of `query` against a column (a property) to a where clause. */
export function whereFuzzy<S extends Record<string, AnyEntity>, M extends keyof S & string>(builder: Conditions<S, M>, column: Ref<S, M>, query: string) {
  const squished = query.trim().replace(/\s+/g, ' ');
  const words = fuzzyWords(squished);
  if (words.length === 0) return builder.whereIgnoringCase(column, squished);
  // The word is lowered here, as GitLab lowers its pattern; the database lowers the column.
  for (const word of words) builder.whereContains([column], word.toLowerCase());
  return builder;
}
