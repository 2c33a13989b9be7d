/**
 * "Column contains text", the same on SQLite and PostgreSQL: case-insensitive, with `%`
 * and `_` taken literally (GitLab escapes them in its search patterns), and for a text of
 * any length. LIKE does not serve: SQLite refuses a pattern over 50,000 bytes with an error.
 */
import type { Knex } from '@mikro-orm/knex';

/** A condition for `where`/`orWhere`: `column` (a name, `alias.column` allowed) contains `text`. */
export function containsText(on: Knex | Knex.QueryBuilder, column: string, text: string): Knex.Raw {
  const { client } = on;
  const position = client.dialect === 'postgresql' ? 'strpos' : 'instr';
  return client.raw(`${position}(lower(??), lower(cast(? as text))) > 0`, [column, text]) as Knex.Raw;
}
