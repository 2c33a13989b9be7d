import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** One delivery of a hook, redacted, as the history answers it. */
export const WebHookLogEntity = defineEntity({
  name: 'WebHookLog',
  tableName: 'web_hook_logs',
  // The history: a hook's deliveries, newest first.
  indexes: [{ properties: ['hookId', 'createdAt'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    hookId: p.integer(),
    /** `push_hooks`, `issue_hooks`, … */
    trigger: p.string().length(64),
    /** The URL delivered to, credentials masked. */
    url: p.text(),
    /** Digest of the interpolated URL, so a resend can tell the URL changed. */
    urlDigest: p.string().length(64),
    requestHeaders: p.text(),
    requestData: p.text(),
    responseHeaders: p.text(),
    responseBody: p.text(),
    /** An HTTP status code, or `internal error`. */
    responseStatus: p.string().length(32),
    executionMs: p.integer(),
    idempotencyKey: p.string().length(36),
    createdAt: p.datetime(),
  }),
});

export type WebHookLogRow = InferEntity<typeof WebHookLogEntity>;
