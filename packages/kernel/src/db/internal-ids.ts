/**
 * Internal ids (`iid`) as GitLab hands them out: from a counter per scope and usage (its
 * `internal_ids` table), so an iid once given is never given again, even after the record
 * that held the highest one was deleted.
 */
import { defineEntity } from '@mikro-orm/core';
import type { Query } from './query.js';
import type { Database } from './open-database.js';
import type { Transaction } from './transaction.js';
import { nextInternalId } from './values.js';

/** The last iid handed out per usage (`issues`, `merge_requests`...) and scope (a project's or group's id). */
export const InternalIdEntity = defineEntity({
  name: 'KernelInternalId',
  tableName: 'internal_ids',
  uniques: [{ properties: ['usage', 'scopeId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    usage: p.string().length(64),
    scopeId: p.integer(),
    lastValue: p.integer(),
  }),
});

export interface InternalIdScope {
  /** What the iids number, with the scope's kind when a usage has several (`milestones:group`). */
  usage: string;
  /** The project's or group's id. */
  scopeId: number;
  /** Names what ran out in the 409 past the column's range (`Issue`). */
  what: string;
  /**
   * The largest iid the scope's records hold now (a `max` named `last`): the counter never
   * falls behind it, so records written before the counter existed, or with a chosen iid,
   * are counted too.
   */
  highest: Query<any, any, any>;
}

/**
 * Inside `tx`: the scope's next iid, or `chosen` (an iid the caller picked) recorded so that
 * later ones come after it. Concurrent writers of one scope take turns (an advisory lock on
 * PostgreSQL, SQLite's single writer), so two never get the same iid.
 */
export async function allocateInternalId(database: Database, tx: Transaction, scope: InternalIdScope, chosen?: number): Promise<number> {
  const { usage, scopeId } = scope;
  await database.lock(tx, `internal-ids:${usage}:${scopeId}`);
  const counter = await database.row(database.from(InternalIdEntity).where({ usage, scopeId }), { tx });
  const { last } = await database.totals<'last'>(scope.highest, { tx });
  const taken = Math.max(counter?.lastValue ?? 0, last ?? 0);
  const value = chosen ?? nextInternalId(taken, scope.what);
  const lastValue = Math.max(taken, value);
  if (!counter) await database.insert(InternalIdEntity, { usage, scopeId, lastValue }, { tx });
  else if (lastValue !== counter.lastValue) await database.update(InternalIdEntity, { id: counter.id }, { lastValue }, { tx });
  return value;
}

/** Forgets a scope's counter once the project or group whose records it numbered is deleted. */
export async function releaseInternalIds(database: Database, usage: string, scopeId: number, tx?: Transaction): Promise<void> {
  await database.delete(InternalIdEntity, { usage, scopeId }, tx ? { tx } : {});
}
