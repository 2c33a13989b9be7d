import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/**
 * A delivery waiting to be sent: written when the event happens and removed in the transaction
 * that records the delivery in the history, so a delivery queued or in flight when the process
 * dies is sent after the restart, and recorded once.
 */
export const WebHookDeliveryEntity = defineEntity({
  name: 'WebHookDelivery',
  tableName: 'web_hook_deliveries',
  indexes: [{ properties: ['hookId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    hookId: p.integer(),
    /** The trigger flag, `push_events`, `issues_events`, … */
    trigger: p.string().length(64),
    /** JSON of GitLab's payload, as it is sent. */
    payload: p.text(),
    /** Kept on every attempt, as GitLab keeps it across retries. */
    idempotencyKey: p.string().length(36),
    eventUuid: p.string().length(36),
    /** Attempts started so far. */
    attempts: p.integer().default(0),
    /** While an attempt runs: when another process may take the delivery over. */
    claimedUntil: p.datetime().nullable(),
    createdAt: p.datetime(),
  }),
});

export type WebHookDeliveryRow = InferEntity<typeof WebHookDeliveryEntity>;
