import type { Database, Transaction } from '@forgekit/kernel';
import { WebHookDeliveryEntity, type WebHookDeliveryRow } from '../entities/web-hook-delivery.js';

export type NewDelivery = Omit<WebHookDeliveryRow, 'id' | 'attempts' | 'claimedUntil'>;

/** The deliveries waiting to be sent (an outbox): each taken by one attempt at a time. */
export function createDeliveryStore(database: Database) {
  const free = (now: Date) => ({ $or: [{ claimedUntil: null }, { claimedUntil: { $lte: now } }] });
  return {
    insert: (delivery: NewDelivery, tx?: Transaction) => database.insert(WebHookDeliveryEntity, { ...delivery, attempts: 0, claimedUntil: null }, { tx }),
    /**
     * Takes the delivery for one attempt until `until`, unless an attempt holds it (here or in
     * another process) or it is gone: the row as taken, or null. The attempt count in the
     * condition makes two takers race for one update.
     */
    async claim(id: number, now: Date, until: Date): Promise<WebHookDeliveryRow | null> {
      const row = await database.row(database.from(WebHookDeliveryEntity).where({ id }));
      if (!row || (row.claimedUntil && row.claimedUntil > now)) return null;
      const attempts = row.attempts + 1;
      const taken = await database.update(WebHookDeliveryEntity, { id, attempts: row.attempts, ...free(now) }, { attempts, claimedUntil: until });
      return taken === 1 ? { ...row, attempts, claimedUntil: until } : null;
    },
    /** Lets another attempt take it at once. */
    release: (id: number) => database.update(WebHookDeliveryEntity, { id }, { claimedUntil: null }),
    remove: (id: number, tx?: Transaction) => database.delete(WebHookDeliveryEntity, { id }, { tx }),
    /** Every waiting delivery, with when an attempt that holds it lets go. */
    pending: (): Promise<WebHookDeliveryRow[]> => database.rows(database.from(WebHookDeliveryEntity).orderBy('id')),
    removeOfHooks: (hookIds: readonly number[]) => database.delete(WebHookDeliveryEntity, { hookId: { $in: [...hookIds] } }),
  };
}

export type DeliveryStore = ReturnType<typeof createDeliveryStore>;
