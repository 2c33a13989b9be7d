/**
 * GitLab's fuzzy title search (`Gitlab::SQL::Pattern`): every word of three or more
 * characters must occur (case-insensitively); a query without such words must match the
 * whole title exactly, ignoring case.
 */
import type { Knex } from '@forgekit/kernel/orm';

export const MIN_PARTIAL_CHARS = 3;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Words of the query: `"quoted phrases"` stay whole; short words are dropped. */
export function fuzzyWords(query: string): string[] {
  const words = [...query.matchAll(/"([^"]+)"|(\S+)/g)].map((match) => match[1] ?? match[2]!);
  return words.filter((word) => [...word].length >= MIN_PARTIAL_CHARS);
}

/** Adds GitLab's fuzzy match of `query` against a column (SQL expression) to a where clause. */
export function whereFuzzy(builder: Knex.QueryBuilder, column: string, query: string) {
  const squished = query.trim().replace(/\s+/g, ' ');
  const words = fuzzyWords(squished);
  if (words.length === 0) return builder.whereRaw(`lower(${column}) = ?`, [squished.toLowerCase()]);
  for (const word of words) builder.whereRaw(`lower(${column}) like ? escape '\\'`, [`%${escapeLike(word.toLowerCase())}%`]);
  return builder;
}
