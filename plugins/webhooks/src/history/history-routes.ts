import { randomUUID } from 'node:crypto';
/** A hook's delivery history (`.../hooks/:hook_id/events`) and resending one of its deliveries. */
import { STATUS_CODES } from 'node:http';
import {
  created,
  defineRoute,
  f,
  frameworkError,
  page,
  params,
  recordNotFound,
  totalFor,
  unprocessable,
  type RateLimitService,
  type Route,
} from '@forgekit/kernel';
import { ARCHIVED_PROJECT_GUARD } from '@forgekit/plugin-core/contracts';
import { executable } from '../delivery/auto-disabling.js';
import { urlDigest, type DeliveryService } from '../delivery/delivery-service.js';
import { triggerOfHookName } from '../delivery/hook-names.js';
import { interpolate } from '../hooks/hook-rules.js';
import type { HookMount } from '../hooks/hook-mount.js';
import type { HookService } from '../hooks/hook-service.js';
import { presentLog } from './log-presenter.js';
import { hookLogSchema, resendSchema } from './log-schemas.js';
import type { LogStore, StatusFilter } from './log-store.js';

/** GitLab shows deliveries since the start of the day seven days ago. */
const WINDOW_DAYS = 7;
const MAX_EVENTS_PER_PAGE = 20;
const CATEGORIES: Record<string, [number, number]> = { successful: [200, 299], client_failure: [400, 499], server_failure: [500, 599] };

export interface HistoryDeps {
  hooks: HookService;
  logs: LogStore;
  delivery: DeliveryService;
  rateLimits: RateLimitService;
  autoDisabling: () => Promise<boolean>;
  resendRateLimited: () => Promise<boolean>;
}

function statusFilter(values: readonly string[] | null | undefined): StatusFilter | null {
  if (!values?.length) return null;
  const filter: StatusFilter = { exact: [], ranges: [], internalErrors: false };
  for (const value of values) {
    const range = CATEGORIES[value];
    if (range) {
      filter.ranges.push(range);
      if (value === 'server_failure') filter.internalErrors = true;
    } else if (/^\d{3}$/.test(value) && STATUS_CODES[value]) filter.exact.push(value);
    else throw frameworkError(400, 'status does not have a valid value');
  }
  return filter;
}

function windowStart(now = new Date()) {
  const start = new Date(now);
  start.setUTCHours(0, 0, 0, 0);
  start.setUTCDate(start.getUTCDate() - WINDOW_DAYS);
  return start;
}

export function historyRoutes(deps: HistoryDeps, mount: HookMount): Route[] {
  const item = `${mount.path}/:hook_id/events`;
  return [
    defineRoute({
      method: 'GET',
      path: item,
      paginated: true,
      input: params({ hook_id: f.id(), status: f.optional(f.commaList()) }),
      response: { schema: hookLogSchema },
      before: (ctx) => mount.owner(ctx),
      async handler(ctx, { hook_id, status }, owner) {
        if (ctx.page.perPageSent > MAX_EVENTS_PER_PAGE) throw frameworkError(400, 'per_page does not have a valid value');
        const hook = await deps.hooks.find(owner, hook_id);
        const filter = statusFilter(status);
        const since = windowStart();
        const logs = await deps.logs.page(hook.id, since, filter, ctx.page.perPage, ctx.page.offset);
        return page(logs.map(presentLog), await totalFor(ctx.page, logs.length, () => deps.logs.count(hook.id, since, filter)));
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${item}/:hook_event_id/resend`,
      exemptFrom: mount.kind === 'project' ? [ARCHIVED_PROJECT_GUARD] : [],
      input: params({ hook_id: f.id(), hook_event_id: f.id() }),
      response: { schema: resendSchema, errors: [422, 429] },
      before: (ctx) => mount.owner(ctx),
      async handler(ctx, { hook_id, hook_event_id }, owner) {
        const hook = await deps.hooks.find(owner, hook_id);
        if (await deps.resendRateLimited()) await deps.rateLimits.consume(`webhooks:resend:${hook.id}:${ctx.user.id}`, { points: 5, durationSeconds: 60 });
        const log = await deps.logs.find(hook.id, hook_event_id);
        if (!log) throw recordNotFound();
        const target = interpolate(hook.url, hook.urlVariables);
        if (urlDigest(target ?? hook.url) !== log.urlDigest) throw unprocessable('The hook URL has changed, and this log entry cannot be retried');
        if (!executable(hook, await deps.autoDisabling())) throw unprocessable('Hook disabled');
        const trigger = triggerOfHookName(log.trigger);
        if (!trigger) throw unprocessable('Hook disabled');
        const outcome = await deps.delivery.execute(hook, trigger, JSON.parse(log.requestData), log.idempotencyKey, randomUUID());
        if (outcome.status === null) throw unprocessable(outcome.error ?? 'internal error');
        return created({ response_status: outcome.status });
      },
    }),
  ];
}
