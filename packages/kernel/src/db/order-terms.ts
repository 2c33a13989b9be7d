/** Pieces of ORDER BY terms that list orders share (issues, merge requests). */
import { type Sql, sql } from './query.js';

/** A value no row has: typed, since PostgreSQL refuses a bare constant in ORDER BY ("non-integer constant in ORDER BY"). */
export const NULL_TERM: Sql = sql`cast(null as integer)`;

/** `sql` pieces one after another, with a space between. */
export const sqlJoined = (pieces: readonly Sql[]): Sql => pieces.reduce((all, piece) => sql`${all} ${piece}`);

/** `term asc` or `term desc`. */
export const sortedTerm = (term: Sql, sort: 'asc' | 'desc'): Sql => (sort === 'asc' ? sql`${term} asc` : sql`${term} desc`);

/** `term` in `sort` with nulls last, on both engines (SQLite and PostgreSQL put them at opposite ends). */
export const nullsLastTerm = (term: Sql, sort: 'asc' | 'desc'): Sql => sql`case when ${term} is null then 1 else 0 end, ${sortedTerm(term, sort)}`;
