/** Turns route tables into an h3 app: auth, input, validation, errors and pagination live here. */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createApp, createRouter, eventHandler, getRequestIP, type App, type H3Event } from 'h3';
import { authenticate, type AuthResult } from '../auth/authenticate.js';
import type { IdentityProvider } from '../auth/identity.js';
import type { Database } from '../db/open-database.js';
import { preformattedInfo, type Logger } from '../services/logger.js';
import { PREFLIGHT_ROUTE, UNMATCHED_ROUTE, type KernelMetrics } from '../services/metrics.js';
import type { RequestContext } from './context.js';
import { ApiError, apiError, frameworkError, unknownRoute } from './errors.js';
import { keptBodyOf, serializeJson } from './json-text.js';
import { keptPaginationHeaders, keysetHeaders, readPageRequest, type PageRequest } from './pagination.js';
import { validateParams } from './params.js';
import { parseQuery, readBodyParams, removeFiles, type BodyLimits } from './read-input.js';
import { BodyAborted, bodyStream } from './request-body.js';
import { KeysetPage, Page, Reply } from './responses.js';
import { assertWellFormedPath } from './well-formed.js';
import type { GuardedRoute, HttpMethod, Route, RouteGuard } from './route.js';

export { API_PREFIX } from './api-prefix.js';

export interface HttpAppOptions {
  routes: readonly { route: Route<any>; mounted: GuardedRoute }[];
  guards: readonly RouteGuard[];
  database: Database;
  log: Logger;
  /** The configured external URL, without a trailing slash; without one, links follow each request's scheme and host. */
  externalUrl: string | undefined;
  /** Links of a request that names no usable host (in-process requests): the server's own URL. */
  fallbackUrl: string;
  /** The path the whole app is served under (`/forge`), or ''; the API is at `<basePath>/api/v4`. */
  basePath: string;
  /** Take the caller's address from `X-Forwarded-For`, and the scheme and host of links from `X-Forwarded-Proto` and `X-Forwarded-Host`. */
  trustProxy: boolean;
  metrics: Pick<KernelMetrics, 'observeRequest'>;
  /** Resolved on the first authenticated request. */
  identity: () => IdentityProvider;
  /** Counts requests in flight, for graceful shutdown. */
  inflight: { count: number };
  /** Request bodies: the size limit, and where uploads go while their request runs. */
  limits: Omit<BodyLimits, 'maxFileSize'> & { maxFileSize(): Promise<number> };
}

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': '*',
  'Access-Control-Expose-Headers': 'Link, X-Total, X-Total-Pages, X-Per-Page, X-Page, X-Next-Page, X-Prev-Page, X-Request-Id, ETag',
  'Access-Control-Max-Age': '7200',
};

const STANDARD_HEADERS = {
  'X-Frame-Options': 'SAMEORIGIN',
  'X-Content-Type-Options': 'nosniff',
  Vary: 'Origin',
  ...CORS_HEADERS,
};

/** The caller's `X-Request-Id` if it sent a sane one, else a new UUID; kept on the event. */
function requestIdOf(event: H3Event): string {
  if (typeof event.context.requestId === 'string') return event.context.requestId;
  const sent = event.node.req.headers['x-request-id'];
  const id = typeof sent === 'string' && /^[\w.:-]{1,128}$/.test(sent) ? sent : randomUUID();
  event.context.requestId = id;
  return id;
}

const ACCESS_LOG_KEYS = ['request_id', 'method', 'path', 'route', 'status', 'aborted', 'duration_ms', 'user_id', 'remote_ip', 'response_bytes'];

const NO_PAGE: PageRequest = Object.freeze({ page: 1, perPage: 20, offset: 0, perPageSent: 20 });

function setHeaders(event: H3Event, headers: Record<string, string>) {
  for (const name in headers) event.node.res.setHeader(name, headers[name]!);
}

/**
 * A request answered before its body arrived whole (refused, or a route that reads no
 * body): close the connection after the answer, rather than let the server read and drop
 * the rest of a body that may be gigabytes long.
 */
function closeIfBodyUnread(event: H3Event) {
  const { req, res } = event.node;
  if (res.socket && !res.headersSent && !req.complete) res.setHeader('Connection', 'close');
}

/** Per-request facts the access log and metrics need, kept on the event. */
interface RequestFacts {
  started: number;
  route: string;
  userId: number | null;
  /** Bytes of the body sent, counted as it is written. */
  bytes: number;
  logged: boolean;
}

function factsOf(event: H3Event): RequestFacts {
  let facts = event.context.forgekit as RequestFacts | undefined;
  if (!facts) event.context.forgekit = facts = { started: performance.now(), route: UNMATCHED_ROUTE, userId: null, bytes: 0, logged: false };
  return facts;
}

/**
 * Ends the response with `data` on the next `setImmediate`, as h3's `send` does: the answers
 * finished while the loop polled are then written together. Ending each at once measured
 * slower under load (`GET /projects/:id` at 10 connections: about 7,000 against 11,000 req/s).
 */
function send(event: H3Event, data: string | Buffer, type?: string): Promise<void> {
  const res = event.node.res;
  if (type && res.statusCode !== 304 && !res.getHeader('content-type')) res.setHeader('content-type', type);
  return new Promise((resolve) => {
    setImmediate(() => {
      if (!event.handled) res.end(data);
      resolve();
    });
  });
}

/** Bodies up to this many characters are written as a string, in one write with the headers. */
const SMALL_BODY = 16 * 1024;

/**
 * A body as it is written: UTF-8 bytes for a large text, which the socket writes after the
 * headers as they are; a larger string it would first join to the headers and copy whole on
 * the heap, which for a list's body is young garbage per request. A small body is cheaper
 * joined than turned into a buffer and written apart.
 */
const bodyOf = (text: string): string | Buffer => (text.length <= SMALL_BODY ? text : Buffer.from(text));

/** Sends a body as made by `bodyOf`, counting its bytes for the access log. */
function sendBody(event: H3Event, body: string | Buffer, type?: string) {
  factsOf(event).bytes += typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  return send(event, body, type);
}

/** Sends a text body (none for HEAD). */
function sendText(event: H3Event, text: string, type?: string) {
  if (event.method === 'HEAD') return send(event, '', type);
  return sendBody(event, bodyOf(text), type);
}

/** Sends a JSON body; a kept list's body is made once (see `keptList`). */
function sendJson(event: H3Event, status: number, body: unknown) {
  event.node.res.statusCode = status;
  if (status === 204 || status === 304 || event.method === 'HEAD') return send(event, '');
  const kept = keptBodyOf(body, bodyOf);
  return kept === undefined ? sendText(event, serializeJson(body), 'application/json') : sendBody(event, kept, 'application/json');
}

/** A host name or address with an optional port, as a `Host` header may carry it; anything else is not put in links. */
const HOST_HEADER = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The first value of a header a proxy may have appended to (`a, b`). */
function firstValue(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text?.split(',')[0]?.trim() || undefined;
}

function decodeParams(raw: Record<string, string> | undefined): Record<string, string> {
  const params: Record<string, string> = {};
  for (const key in raw) {
    const value = raw[key]!;
    if (!value.includes('%')) {
      params[key] = value;
      continue;
    }
    try {
      params[key] = decodeURIComponent(value);
    } catch {
      params[key] = value;
    }
  }
  return params;
}

/** The client went away, or the HTTP parser refused its request, while the body was read or the answer sent. */
function isAborted(error: unknown): boolean {
  if (error instanceof BodyAborted) return true;
  const code = (error as { code?: string } | null)?.code;
  return code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNRESET' || code === 'EPIPE';
}

/** Tells h3 the request is answered, so it looks for no further handler (and raises no "Cannot find any path"). */
function markHandled(event: H3Event) {
  (event as unknown as { _handled: boolean })._handled = true;
}

/** Pipes a Node stream to the socket with backpressure; in-process callers get a web stream. */
async function sendStream(event: H3Event, body: Readable) {
  const res = event.node.res;
  if (event.method === 'HEAD') {
    body.destroy();
    return send(event, '');
  }
  const facts = factsOf(event);
  body.on('data', (chunk: Buffer | string) => void (facts.bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length));
  if (!res.socket) {
    (res as unknown as { _data: unknown })._data = Readable.toWeb(body);
    markHandled(event);
    return;
  }
  await pipeline(body, res);
}

export function createHttpApp(options: HttpAppOptions): App {
  const { log, basePath, trustProxy } = options;
  const app = createApp({
    onError: (error, event) => {
      log.error({ err: error }, 'unhandled router error');
      const sent = sendJson(event, 500, { message: '500 Internal Server Error' });
      logRequest(event, false);
      return sent as unknown as undefined;
    },
  });
  const router = createRouter();

  for (const { route, mounted } of options.routes) {
    const guards = options.guards.filter((guard) => !route.exemptFrom?.includes(guard.name) && guard.applies(mounted));
    const handler = eventHandler((event) => dispatch(route, mounted.path, guards, event));
    router.add(mounted.path, handler, route.method.toLowerCase() as 'get');
    if (route.method === 'GET') router.add(mounted.path, handler, 'head');
  }

  app.use(
    eventHandler((event) => {
      factsOf(event);
      setHeaders(event, STANDARD_HEADERS);
      event.node.res.setHeader('X-Request-Id', requestIdOf(event));
      if (event.method === 'OPTIONS') {
        factsOf(event).route = PREFLIGHT_ROUTE;
        event.node.res.statusCode = 204;
        const sent = send(event, '');
        logRequest(event, false);
        return sent;
      }
    }),
  );
  // A catch-all route answers what no route matches: h3's router would otherwise build an
  // error whose status message quotes the (hostile) path, on every unmatched request.
  router.add(
    '/**',
    eventHandler(async (event) => {
      const gone = event.path.startsWith(`${basePath}/api/v3/`);
      await (gone ? sendJson(event, 410, { error: 'API V3 is no longer supported. Use API V4 instead.' }) : sendJson(event, 404, unknownRoute().body));
      logRequest(event, false);
    }),
  );
  app.use(router);

  /** The caller's address: the socket's, or `X-Forwarded-For`'s when the proxy is trusted. */
  const callerIp = (event: H3Event) => getRequestIP(event, { xForwardedFor: trustProxy }) ?? '';

  /**
   * The base of links in this request's answer: the configured external URL, or the scheme
   * and host the client used (from `X-Forwarded-Proto` and `X-Forwarded-Host` when the proxy
   * is trusted), so clients see the address they called.
   */
  function externalUrlOf(event: H3Event): string {
    if (options.externalUrl !== undefined) return options.externalUrl;
    const { headers, socket } = event.node.req;
    let scheme = (socket as { encrypted?: boolean } | undefined)?.encrypted ? 'https' : 'http';
    let host = firstValue(headers.host);
    if (trustProxy) {
      const proto = firstValue(headers['x-forwarded-proto'])?.toLowerCase();
      if (proto === 'http' || proto === 'https') scheme = proto;
      host = firstValue(headers['x-forwarded-host']) ?? host;
    }
    if (!host || !HOST_HEADER.test(host)) return options.fallbackUrl;
    return `${scheme}://${host.toLowerCase()}${basePath}`;
  }

  /** `link` (built from the instance's URL) on `base` instead. */
  function relink(link: string, base: string): string {
    const instance = options.fallbackUrl;
    if (base === instance || !link.startsWith(instance)) return link;
    const rest = link.slice(instance.length);
    return rest === '' || rest.startsWith('/') || rest.startsWith('?') ? base + rest : link;
  }

  const accessLine = preformattedInfo(log, ACCESS_LOG_KEYS, 'request');
  const pageHeaders = keptPaginationHeaders();

  /** One access-log line and one metrics observation per request, whatever answered it. */
  function logRequest(event: H3Event, aborted: boolean) {
    const facts = factsOf(event);
    if (facts.logged) return;
    facts.logged = true;
    const res = event.node.res;
    // What the client was sent: nothing, when it went away or the HTTP parser answered it.
    const status = res.headersSent || !aborted ? res.statusCode : null;
    const seconds = (performance.now() - facts.started) / 1000;
    options.metrics.observeRequest(event.method, facts.route, status, seconds);
    if (!log.isLevelEnabled('info')) return;
    const url = event.path;
    const queryIndex = url.indexOf('?');
    const path = queryIndex === -1 ? url : url.slice(0, queryIndex);
    const durationMs = Math.round(seconds * 100_000) / 100;
    const remoteIp = callerIp(event) || null;
    const responseBytes = aborted ? null : facts.bytes;
    if (accessLine) {
      // The fields of the object below, in its order, as JSON.
      accessLine(
        `,"request_id":${JSON.stringify(requestIdOf(event))},"method":${JSON.stringify(event.method)},"path":${JSON.stringify(path)}` +
          `,"route":${JSON.stringify(facts.route)},"status":${JSON.stringify(status)}${aborted ? ',"aborted":true' : ''}` +
          `,"duration_ms":${JSON.stringify(durationMs)},"user_id":${JSON.stringify(facts.userId)},"remote_ip":${JSON.stringify(remoteIp)}` +
          `,"response_bytes":${JSON.stringify(responseBytes)}`,
      );
      return;
    }
    // One object literal of a fixed shape per line: `aborted` is left out of the line when undefined.
    log.info(
      {
        request_id: requestIdOf(event),
        method: event.method,
        path,
        route: facts.route,
        status,
        aborted: aborted || undefined,
        duration_ms: durationMs,
        user_id: facts.userId,
        remote_ip: remoteIp,
        response_bytes: responseBytes,
      },
      'request',
    );
  }

  async function dispatch(route: Route<any>, template: string, guards: readonly RouteGuard[], event: H3Event) {
    const facts = factsOf(event);
    facts.route = template;
    const requestId = requestIdOf(event);
    options.inflight.count++;
    const uploads: string[] = [];
    let aborted = false;
    try {
      // Uploaded files are gone before the answer is sent, so a client never sees them outlive its request.
      const prepared = await run(route, guards, event, requestId, uploads).finally(() => removeFiles(uploads));
      await write(event, route, prepared);
    } catch (error) {
      aborted = isAborted(error);
      // Nothing is sent to a client that went away, or that the HTTP parser already answered.
      if (aborted) markHandled(event);
      else await writeError(event, error, requestId);
    } finally {
      options.inflight.count--;
      logRequest(event, aborted);
    }
  }

  interface Prepared {
    ctx: RequestContext;
    result: unknown;
    linkParams: Record<string, unknown>;
    /** What the page's links are made of but its total, when the URL alone gives the params (see `keptPaginationHeaders`). */
    linkKey: string | undefined;
  }

  async function run(route: Route<any>, guards: readonly RouteGuard[], event: H3Event, requestId: string, uploads: string[]): Promise<Prepared> {
    const method = event.method as HttpMethod;
    const url = event.path;
    const queryIndex = url.indexOf('?');
    // Below the base path: what the route table and links see.
    const path = (queryIndex === -1 ? url : url.slice(0, queryIndex)).slice(basePath.length);
    assertWellFormedPath(path);
    const params = decodeParams(event.context.params as Record<string, string> | undefined);
    const query = queryIndex === -1 ? {} : parseQuery(url.slice(queryIndex + 1));
    const headers = event.node.req.headers;
    const externalUrl = externalUrlOf(event);
    const header = (name: string) => {
      const value = headers[name.toLowerCase()];
      return Array.isArray(value) ? value[0] : value;
    };
    // Credentials come from headers and the query string only, so a body is read only for a caller who may send it.
    const auth: AuthResult = await authenticate(
      route.auth ?? 'required',
      route.scopes,
      { method, basic: route.basicAuth, header, param: (name) => query[name] },
      options.identity,
    );
    factsOf(event).userId = auth.user?.id ?? null;
    const maxBodySize = route.maxBodySize ?? options.limits.maxBodySize;
    let bodyParams: Record<string, unknown> = {};
    if (!route.streamBody) {
      const body = await readBodyParams(event, method, { ...options.limits, maxBodySize, maxFileSize: route.uploads ? options.limits.maxFileSize : null });
      uploads.push(...body.files);
      bodyParams = body.params;
    }
    const merged: Record<string, unknown> = { ...query, ...bodyParams, ...params };

    const pageRequest = route.paginated ? readPageRequest(merged) : NO_PAGE;
    const ctx: RequestContext = {
      requestId,
      method,
      path,
      params,
      user: auth.user,
      credential: auth.credential,
      sudoer: auth.sudoer,
      page: pageRequest,
      bodyStream: route.streamBody ? bodyStream(event, maxBodySize) : null,
      ip: callerIp(event),
      externalUrl,
      relink: (link) => relink(link, externalUrl),
      log,
      header,
      setHeader: (name, value) => event.node.res.setHeader(name, value),
    };
    for (const guard of guards) await guard.check(ctx);
    // Like Grape's `before` blocks: find and authorize the resource before validating params.
    const resource = route.before ? await route.before(ctx) : undefined;
    let input: Record<string, unknown> = {};
    if (route.input) {
      const validated = validateParams(route.input, merged);
      if ('error' in validated) throw route.paramErrors === 'message' ? apiError(400, validated.error) : frameworkError(400, validated.error);
      input = validated.output as Record<string, unknown>;
    }
    const result = await route.handler(ctx, input, resource);
    const linkParams = route.paginated ? { ...input, ...params, page: pageRequest.page } : {};
    const linkKey = route.paginated && Object.keys(bodyParams).length === 0 ? `${externalUrl} ${url}` : undefined;
    return { ctx, result, linkParams, linkKey };
  }

  async function write(event: H3Event, route: Route<any>, prepared: Prepared): Promise<number> {
    closeIfBodyUnread(event);
    const { result } = prepared;
    if (result instanceof Reply) {
      setHeaders(event, result.headers);
      if (result.kind === 'raw') {
        event.node.res.statusCode = result.status;
        await sendText(event, result.body as string);
      } else if (result.kind === 'stream') {
        event.node.res.statusCode = result.status;
        await sendStream(event, result.body as Readable);
      } else {
        await sendJson(event, result.status, result.body);
      }
      return result.status;
    }
    if (result instanceof Page || result instanceof KeysetPage) {
      const base = `${prepared.ctx.externalUrl}${prepared.ctx.path}`;
      const headers =
        result instanceof Page
          ? pageHeaders(prepared.linkKey, prepared.ctx.page, result.total, base, prepared.linkParams)
          : keysetHeaders(prepared.ctx.page, result.next, base, prepared.linkParams);
      setHeaders(event, headers);
      await sendJson(event, 200, result.items);
      return 200;
    }
    const status = route.method === 'POST' ? 201 : 200;
    await sendJson(event, status, result ?? null);
    return status;
  }

  async function writeError(event: H3Event, error: unknown, requestId: string): Promise<number> {
    if (event.node.res.headersSent) {
      // A streamed answer failed half-way: the client sees a cut-off body, as with any broken stream.
      log.error({ err: error, request_id: requestId }, 'response stream failed');
      event.node.res.destroy();
      return event.node.res.statusCode;
    }
    closeIfBodyUnread(event);
    if (error instanceof ApiError) {
      setHeaders(event, error.headers);
      if (error.text !== undefined) {
        event.node.res.statusCode = error.status;
        await sendText(event, error.text, 'text/plain');
      } else {
        await sendJson(event, error.status, error.body);
      }
      return error.status;
    }
    log.error({ err: error, request_id: requestId }, 'request failed');
    await sendJson(event, 500, { message: '500 Internal Server Error' });
    return 500;
  }

  return app;
}
