/**
 * Deliveries: a hook request becomes one waiting delivery per hook that wants it, written to the
 * database, and a queued job (so a slow receiver never slows the request that caused the event);
 * the job sends it with GitLab's headers, then records it, redacted, in the history, keeps the
 * hook's failure count and removes the waiting delivery, in one transaction. A delivery queued or
 * in flight when the process dies stays written and is sent after the restart (`recover`), with
 * the same Idempotency-Key, and recorded once.
 *
 * Retries are GitLab's: a receiver's error status, a timeout, a refused connection or a blocked
 * address is a delivery that happened (recorded once, counted by auto-disabling, never sent
 * again; the history's resend is the user's retry). Only an attempt that fails here (the
 * database, say) runs again, as Sidekiq retries WebHookWorker: four retries, then the delivery is
 * dropped (`retry: 4, dead: false`).
 */
import { createHash, randomUUID } from 'node:crypto';
import { type Database, type JobService, JobServiceStoppedError, type Logger, type Metrics, type Transaction } from '@forgekit/kernel';
import type { HookRequest, HookTrigger } from '../contracts.js';
import type { LogStore, NewLog } from '../history/log-store.js';
import { maskCredentials, redactEmails, redactHeaders } from '../history/redaction.js';
import { branchPasses, interpolate } from '../hooks/hook-rules.js';
import type { Hook, HookStore } from '../hooks/hook-store.js';
import { afterDelivery, executable } from './auto-disabling.js';
import type { DeliveryStore } from './delivery-store.js';
import { renderTemplate } from './custom-template.js';
import { eventHeader, hookName } from './hook-names.js';
import { checkedAddress, parseTarget, type OutboundPolicy } from './outbound-guard.js';
import { MAX_REQUEST_BYTES, sendRequest, type HookResponse } from './send-request.js';

export const DELIVER_JOB = 'webhooks:deliver';
export const RECOVER_JOB = 'webhooks:recover';

/** GitLab's WebHookWorker: `sidekiq_options retry: 4`. The waits double from 15 s, near Sidekiq's. */
export const DELIVERY_RETRIES = { retryLimit: 4, retryDelay: 15, retryBackoff: true } as const;
/** How long an attempt holds a delivery beyond the receiver's timeout before another may take it. */
const CLAIM_MARGIN_MS = 10_000;

/** A queued delivery: the waiting delivery's id. */
interface DeliveryJob {
  deliveryId: number;
}

/** A job queued before deliveries were written down, which carried the delivery itself. */
interface EarlierDeliveryJob {
  hookId: number;
  trigger: HookTrigger;
  payload: Record<string, unknown>;
  idempotencyKey: string;
  eventUuid: string;
}

export interface DeliveryOptions {
  database: Pick<Database, 'transaction'>;
  hooks: HookStore;
  logs: LogStore;
  deliveries: DeliveryStore;
  jobs: Pick<JobService, 'enqueue'>;
  metrics: Metrics;
  policy: () => Promise<OutboundPolicy>;
  autoDisabling: () => Promise<boolean>;
  /** The groups whose hooks see a project's events: its namespace and the groups above it. */
  groupsOfProject: (projectId: number) => Promise<number[]>;
  /** A group and the groups above it. */
  groupsOfGroup: (groupId: number) => Promise<number[]>;
  instanceUrl: string;
  userAgent: string;
  timeoutMs: number;
  log: Logger;
}

/** The outcome of one delivery: the receiver's status, or null with the error's text. */
export interface Outcome {
  status: number | null;
  body: string;
  error: string | null;
}

const isSuccess = (status: number | null) => status !== null && status >= 200 && status < 400;
export const urlDigest = (url: string) => createHash('sha256').update(url).digest('hex');

export function createDeliveryService(options: DeliveryOptions) {
  const { hooks, logs, deliveries } = options;

  function headersFor(hook: Hook, name: string, idempotencyKey: string, eventUuid: string) {
    const event = eventHeader(name);
    const webhookUuid = randomUUID();
    const builtIn: Record<string, string> = {
      'Content-Type': 'application/json',
      'User-Agent': options.userAgent,
      'Idempotency-Key': idempotencyKey,
      'X-Service-Event': event,
      'X-Gitlab-Event': event,
      'X-Service-Webhook-UUID': webhookUuid,
      'X-Gitlab-Webhook-UUID': webhookUuid,
      'X-Service-Instance': options.instanceUrl,
      'X-Gitlab-Instance': options.instanceUrl,
      'X-Service-Event-UUID': eventUuid,
      'X-Gitlab-Event-UUID': eventUuid,
    };
    if (hook.token) {
      const token = hook.token.replace(/[\r\n]/g, '');
      builtIn['X-Service-Token'] = token;
      builtIn['X-Gitlab-Token'] = token;
    }
    const taken = new Set(Object.keys(builtIn).map((key) => key.toLowerCase()));
    // Custom headers first; a built-in header wins over one of the same name.
    const custom = Object.fromEntries(Object.entries(hook.customHeaders).filter(([key]) => !taken.has(key.toLowerCase())));
    return { headers: { ...custom, ...builtIn }, secret: ['X-Service-Token', 'X-Gitlab-Token', ...Object.keys(custom)] };
  }

  /** Sends one request and describes it for the history; writes nothing. */
  async function send(hook: Hook, trigger: HookTrigger, payload: Record<string, unknown>, idempotencyKey: string, eventUuid: string) {
    const name = hookName(trigger);
    const { headers, secret } = headersFor(hook, name, idempotencyKey, eventUuid);
    const target = interpolate(hook.url, hook.urlVariables);
    const started = Date.now();
    let response: HookResponse | null = null;
    let error: string | null = null;
    try {
      if (target === null) throw new Error('Invalid URL template');
      const url = parseTarget(target);
      const address = await checkedAddress(url, await options.policy());
      if (url.username || url.password) {
        headers.Authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
        url.username = '';
        url.password = '';
      }
      const body = hook.customWebhookTemplate ? renderTemplate(hook.customWebhookTemplate, payload) : JSON.stringify(payload);
      if (Buffer.byteLength(body) > MAX_REQUEST_BYTES) throw new Error('Request body is too large');
      response = await sendRequest({ url, address, headers, body, timeoutMs: options.timeoutMs, verifyTls: hook.enableSslVerification });
    } catch (failure) {
      error = (failure as Error).message;
    }
    const status = response?.status ?? null;
    const { Authorization: _credentials, ...recorded } = headers;
    const log: NewLog = {
      hookId: hook.id,
      trigger: name,
      url: maskCredentials(hook.url),
      urlDigest: urlDigest(target ?? hook.url),
      requestHeaders: JSON.stringify(redactHeaders(recorded, secret)),
      requestData: JSON.stringify(redactEmails(payload)),
      responseHeaders: JSON.stringify(response?.headers ?? {}),
      responseBody: response?.body ?? '',
      responseStatus: status === null ? 'internal error' : String(status),
      executionMs: Date.now() - started,
      idempotencyKey,
      createdAt: new Date(),
    };
    return { log, outcome: { status, body: response?.body ?? '', error } satisfies Outcome };
  }

  /** Records a sent request in the history and in the hook's failure count. */
  async function record(hook: Hook, log: NewLog, outcome: Outcome, tx?: Transaction) {
    const success = isSuccess(outcome.status);
    await logs.insert(log, tx);
    const health = afterDelivery(hook, success);
    await hooks.setHealth(hook.id, health.recentFailures, health.disabledUntil, tx);
  }

  const count = (outcome: Outcome) =>
    options.metrics.countWebhookDelivery(isSuccess(outcome.status) ? 'delivered' : outcome.status === null ? 'errored' : 'failed');

  /** Sends now and records it (tests and resends, which answer with the outcome). */
  async function execute(hook: Hook, trigger: HookTrigger, payload: Record<string, unknown>, idempotencyKey: string, eventUuid: string): Promise<Outcome> {
    const { log, outcome } = await send(hook, trigger, payload, idempotencyKey, eventUuid);
    await record(hook, log, outcome);
    count(outcome);
    return outcome;
  }

  /** One attempt at a waiting delivery, unless another attempt holds it or it is gone. */
  async function attempt(deliveryId: number) {
    const now = new Date();
    const delivery = await deliveries.claim(deliveryId, now, new Date(now.getTime() + options.timeoutMs + CLAIM_MARGIN_MS));
    if (!delivery) return;
    try {
      const hook = await hooks.findById(delivery.hookId);
      // The hook went away or was disabled meanwhile; a delivery that failed every attempt is dropped, as Sidekiq drops it.
      if (!hook || !executable(hook, await options.autoDisabling()) || delivery.attempts > 1 + DELIVERY_RETRIES.retryLimit) {
        if (hook && delivery.attempts > 1 + DELIVERY_RETRIES.retryLimit)
          options.log.warn({ hookId: hook.id, deliveryId }, 'hook delivery dropped after its retries');
        await deliveries.remove(deliveryId);
        return;
      }
      const { log, outcome } = await send(hook, delivery.trigger as HookTrigger, JSON.parse(delivery.payload), delivery.idempotencyKey, delivery.eventUuid);
      await options.database.transaction(async (tx) => {
        await record(hook, log, outcome, tx);
        await deliveries.remove(deliveryId, tx);
      });
      count(outcome);
    } catch (failure) {
      // Another attempt (the job's retry) may take it at once.
      await deliveries.release(deliveryId).catch(() => undefined);
      throw failure;
    }
  }

  const enqueue = (deliveryId: number, startAfter?: Date) =>
    options.jobs.enqueue<DeliveryJob>(DELIVER_JOB, { deliveryId }, { ...DELIVERY_RETRIES, ...(startAfter && { startAfter }) });

  async function targets(request: HookRequest) {
    if (request.projectId !== null) return hooks.ofOwners([request.projectId], await options.groupsOfProject(request.projectId));
    if (request.groupId !== null) return hooks.ofOwners([], await options.groupsOfGroup(request.groupId));
    return [];
  }

  return {
    execute,
    async publish(request: HookRequest) {
      const autoDisabling = await options.autoDisabling();
      const eventUuid = randomUUID();
      const wanting = (await targets(request)).filter(
        (hook) =>
          hook.triggers[request.trigger] === true &&
          (request.trigger !== 'push_events' ||
            request.branch === undefined ||
            branchPasses(hook.branchFilterStrategy, hook.pushEventsBranchFilter, request.branch)) &&
          executable(hook, autoDisabling),
      );
      if (wanting.length === 0) return;
      const payload = JSON.stringify(request.payload);
      const createdAt = new Date();
      // One write for every hook's delivery; queued once written, and if queueing fails, `recover` queues them.
      const ids = await options.database.transaction(async (tx) => {
        const written: number[] = [];
        for (const hook of wanting)
          written.push(await deliveries.insert({ hookId: hook.id, trigger: request.trigger, payload, idempotencyKey: randomUUID(), eventUuid, createdAt }, tx));
        return written;
      });
      try {
        for (const id of ids) await enqueue(id);
      } catch (error) {
        // A process that is stopping queues nothing; the written rows are queued by `recover` at the next start.
        if (!(error instanceof JobServiceStoppedError)) throw error;
        options.log.debug({ deliveries: ids.length, eventUuid }, 'hook deliveries left for the next start');
      }
    },
    async deliver(job: DeliveryJob | EarlierDeliveryJob) {
      if ('deliveryId' in job) return attempt(job.deliveryId);
      const hook = await hooks.findById(job.hookId);
      if (!hook || !executable(hook, await options.autoDisabling())) return;
      await execute(hook, job.trigger, job.payload, job.idempotencyKey, job.eventUuid);
    },
    /**
     * Queues every waiting delivery: at once, or when the attempt that holds it lets go (its
     * process may have died). Runs at start and on the host's schedule; a delivery queued twice
     * is still sent by one attempt.
     */
    async recover() {
      const now = new Date();
      const waiting = await deliveries.pending();
      for (const delivery of waiting) {
        const held = delivery.claimedUntil && delivery.claimedUntil > now ? delivery.claimedUntil : undefined;
        await enqueue(delivery.id, held && new Date(held.getTime() + 1000));
      }
      return waiting.length;
    },
  };
}

export type DeliveryService = ReturnType<typeof createDeliveryService>;
