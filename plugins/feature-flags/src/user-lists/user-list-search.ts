/**
 * GitLab's fuzzy name search: every word (or "quoted phrase") must occur in the name,
 * case-insensitively.
 */
import type { Conditions } from '@forgekit/kernel/orm';

export function searchTerms(search: string): string[] {
  const query = search.trim().replace(/\s+/g, ' ');
  const quoted = query.match(/(?<=^| )"[^"]+"(?= |$)/g) ?? [];
  const rest = quoted.reduce((text, phrase) => text.replace(phrase, ''), query);
  return [...rest.split(/\s+/).filter((word) => word !== ''), ...quoted.map((phrase) => phrase.slice(1, -1))];
}

/** Narrows a query to rows whose `name` matches every term of `search`; a blank search matches all. */
export function whereNameMatches<Q extends Conditions<any, any>>(query: Q, search: string | null | undefined): Q {
  if (!search || search.trim() === '') return query;
  for (const term of searchTerms(search)) query.whereContains(['name'], term);
  return query;
}
