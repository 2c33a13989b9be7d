/**
 * Deliveries: a hook request becomes one queued job per hook that wants it (so a slow receiver
 * never slows the request that caused the event, and a queued delivery survives a restart on
 * PostgreSQL); the job sends it with GitLab's headers, records it, redacted, in the history and
 * keeps the hook's failure count.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { JobService, Metrics } from '@forgekit/kernel';
import type { HookRequest, HookTrigger } from '../contracts.js';
import type { LogStore } from '../history/log-store.js';
import { maskCredentials, redactEmails, redactHeaders } from '../history/redaction.js';
import { branchPasses, interpolate } from '../hooks/hook-rules.js';
import type { Hook, HookStore } from '../hooks/hook-store.js';
import { afterDelivery, executable } from './auto-disabling.js';
import { renderTemplate } from './custom-template.js';
import { eventHeader, hookName } from './hook-names.js';
import { checkedAddress, parseTarget, type OutboundPolicy } from './outbound-guard.js';
import { MAX_REQUEST_BYTES, sendRequest, type HookResponse } from './send-request.js';

export const DELIVER_JOB = 'webhooks:deliver';

interface DeliveryJob {
  hookId: number;
  trigger: HookTrigger;
  payload: Record<string, unknown>;
  idempotencyKey: string;
  eventUuid: string;
}

export interface DeliveryOptions {
  hooks: HookStore;
  logs: LogStore;
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
  const { hooks, logs } = options;

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

  async function execute(hook: Hook, trigger: HookTrigger, payload: Record<string, unknown>, idempotencyKey: string, eventUuid: string): Promise<Outcome> {
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
    await logs.insert({
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
    });
    const health = afterDelivery(hook, isSuccess(status));
    await hooks.setHealth(hook.id, health.recentFailures, health.disabledUntil);
    options.metrics.countWebhookDelivery(isSuccess(status) ? 'delivered' : status === null ? 'errored' : 'failed');
    return { status, body: response?.body ?? '', error };
  }

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
      for (const hook of await targets(request)) {
        if (hook.triggers[request.trigger] !== true) continue;
        if (
          request.trigger === 'push_events' &&
          request.branch !== undefined &&
          !branchPasses(hook.branchFilterStrategy, hook.pushEventsBranchFilter, request.branch)
        )
          continue;
        if (!executable(hook, autoDisabling)) continue;
        const job: DeliveryJob = { hookId: hook.id, trigger: request.trigger, payload: request.payload, idempotencyKey: randomUUID(), eventUuid };
        await options.jobs.enqueue(DELIVER_JOB, job);
      }
    },
    /** The queued delivery, unless the hook went away or was disabled meanwhile. */
    async deliver(job: DeliveryJob) {
      const hook = await hooks.findById(job.hookId);
      if (!hook || !executable(hook, await options.autoDisabling())) return;
      await execute(hook, job.trigger, job.payload, job.idempotencyKey, job.eventUuid);
    },
  };
}

export type DeliveryService = ReturnType<typeof createDeliveryService>;
