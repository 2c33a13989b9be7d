import type { Database, Transaction } from '@forgekit/kernel';
import { WebHookLogEntity, type WebHookLogRow } from '../entities/web-hook-log.js';

export type NewLog = Omit<WebHookLogRow, 'id'>;

/** Which deliveries a history page shows: exact statuses and status ranges, OR-ed. */
export interface StatusFilter {
  exact: string[];
  ranges: [number, number][];
  internalErrors: boolean;
}

export function createLogStore(database: Database) {
  const inWindow = (hookId: number, since: Date, filter: StatusFilter | null) => {
    const query = database.from(WebHookLogEntity).where({ hookId }).where('createdAt', '>=', since);
    if (!filter) return query;
    return query.where((w) => {
      w.whereIn('responseStatus', filter.exact.length ? filter.exact : ['-']);
      // Status codes are kept as text, always three digits, so a range compares as text.
      for (const [low, high] of filter.ranges) w.orWhere((r) => r.where('responseStatus', '>=', String(low)).where('responseStatus', '<=', String(high)));
      if (filter.internalErrors) w.orWhere('responseStatus', 'internal error');
    });
  };
  return {
    insert: (log: NewLog, tx?: Transaction) => database.insert(WebHookLogEntity, log, { tx }),
    page: (hookId: number, since: Date, filter: StatusFilter | null, limit: number, offset: number): Promise<WebHookLogRow[]> =>
      database.rows(inWindow(hookId, since, filter).orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(limit).offset(offset)),
    count: (hookId: number, since: Date, filter: StatusFilter | null) => database.count(inWindow(hookId, since, filter)),
    find: (hookId: number, id: number): Promise<WebHookLogRow | undefined> => database.row(database.from(WebHookLogEntity).where({ hookId, id })),
    removeOfHooks: (hookIds: readonly number[]) => database.delete(WebHookLogEntity, { hookId: { $in: [...hookIds] } }),
  };
}

export type LogStore = ReturnType<typeof createLogStore>;
