/** Boots plugins in two phases: collect and initialise the ORM once, then register in dependency order. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { toNodeListener, toWebHandler } from 'h3';
import { container as rootContainer, instanceCachingFactory, type DependencyContainer } from './plugin/registry.js';
import { checkConfig } from './config/check-config.js';
import type { KernelConfig, KernelConfigInput } from './config/kernel-config.js';
import { runMigrations, type OwnedMigration } from './db/migrate.js';
import { kernelMigrations } from './db/kernel-migrations.js';
import { InternalIdEntity } from './db/internal-ids.js';
import { internalsOf } from './db/internals.js';
import { isPostgresUrl, openDatabase, type Database } from './db/open-database.js';
import { API_PREFIX } from './http/api-prefix.js';
import { createHttpApp } from './http/create-http-app.js';
import { describeField, type DescribedField } from './http/fields.js';
import { describeRule, type GroupRule } from './http/params.js';
import { scopesFor } from './auth/authenticate.js';
import { defineRoute, type AuthMode, type HttpMethod, type Route, type RouteGuard, type RouteResponse } from './http/route.js';
import { isLocalCaller } from './http/local-callers.js';
import { raw } from './http/responses.js';
import { notFound } from './http/errors.js';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi/build-document.js';
import { openApiRoute } from './openapi/openapi-route.js';
import { BootError, checkPlugins, checkRouteParams, collectEntities, orderPlugins } from './plugin/boot-order.js';
import { kernelServices, type InstanceInfo, type UploadLimits } from './plugin/kernel-services.js';
import type { ForgePlugin, PluginContext } from './plugin/define-plugin.js';
import { packageHint, type ServiceRef } from './plugin/service-ref.js';
import { kernelTokens } from './plugin/kernel-tokens.js';
import { InProcessEventBus, type EventBus } from './services/events.js';
import { createFileStorage, type FileStorage } from './services/file-storage.js';
import { InProcessJobService, type JobService } from './services/jobs.js';
import { createFragmentCache } from './presented/fragment-cache.js';
import { createLogger, type Logger } from './services/logger.js';
import { createMetrics, timeStatements, type Metrics, type MetricsExposition } from './services/metrics.js';
import { requireOptionalPeers } from './services/optional-peers.js';
import { PgBossJobService } from './services/pg-boss-jobs.js';
import { memoryRateLimits, postgresRateLimits } from './services/rate-limit.js';
import type { Secrets } from './services/secrets.js';
import { openSecrets } from './services/secrets-key.js';

/** GitLab's default `max_attachment_size`: 100 MiB. */
const DEFAULT_MAX_FILE_SIZE = 100 * 1024 * 1024;

export const KERNEL_VERSION: string = createRequire(import.meta.url)('../package.json').version;

export interface KernelOptions {
  plugins: readonly ForgePlugin<any>[];
  /** Raw config (see `loadConfig`); validated here, before anything is opened or written. */
  config?: KernelConfigInput;
  logger?: Logger;
  /**
   * Serve everything under this path (`/forge`: the API at `/forge/api/v4`, health checks at
   * `/forge/-/health`). Requests must arrive with the prefix on their URL. Default: none.
   */
  basePath?: string;
  /**
   * The URL this server is reached at when no `externalUrl` is configured, for links built
   * outside a request (jobs, events). Requests link to the scheme and host they were sent
   * to. Default: `http://localhost:<port>`.
   */
  serverUrl?: string;
  /** Told what a long step is doing (each migration as it is applied). */
  progress?: (message: string) => void;
  /**
   * Answers `/-/metrics` in place of this kernel's own registry (a host running several
   * processes aggregates them here).
   */
  metricsExposition?: () => Promise<MetricsExposition>;
}

/** Node's request listener: `(req, res) => void`. */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/** A mounted route, as tools (fuzzers, route listings) see it. */
export interface RouteInfo {
  readonly pluginId: string;
  readonly method: HttpMethod;
  /** The full path, `/api/v4` included unless the route is raw; `:name` placeholders. */
  readonly path: string;
  readonly auth: AuthMode;
  /** The top-level parameter names its params schema declares. */
  readonly inputs: readonly string[];
  /** What each of `inputs` takes, where the kernel's field types tell (see `describeField`). */
  readonly fields: Readonly<Record<string, DescribedField | undefined>>;
  /** The group rules of its params (`rules.exactlyOneOf(...)`, ...), where `rules` built them. */
  readonly rules: readonly GroupRule[];
  /** The token scopes that allow it, or `handler` when the route checks them itself; none on `none` routes. */
  readonly scopes: readonly string[] | 'handler';
  /** Whether the handler takes the body as bytes rather than parsed params. */
  readonly streamBody: boolean;
  /** Offset pagination: `page`/`per_page` in, pagination headers out. */
  readonly paginated: boolean;
  /** Takes files in multipart bodies. */
  readonly uploads: boolean;
  /** Also takes HTTP Basic auth with a token as the password. */
  readonly basicAuth: boolean;
  /** What it answers on success, where the route declares it. */
  readonly response: RouteResponse | undefined;
  /** The route guards (by name) it is exempt from. */
  readonly exemptFrom: readonly string[];
}

export interface Kernel {
  readonly config: KernelConfig;
  readonly database: Database;
  readonly events: EventBus;
  readonly jobs: JobService;
  readonly files: FileStorage;
  readonly log: Logger;
  readonly plugins: readonly ForgePlugin<any>[];
  /** Every mounted route, in registration order (read-only). */
  readonly routes: readonly RouteInfo[];
  /** The OpenAPI 3.1 document of `routes` (served at `/api/v4/openapi.json`). */
  openApi(): OpenApiDocument;
  /** Prometheus metrics of this kernel; plugins resolve `kernelServices.metrics`. */
  readonly metrics: Metrics;
  /** Fetch-style handler for in-process requests (tests). */
  readonly fetch: (request: Request) => Promise<Response>;
  /** Node `http` listener. */
  readonly nodeListener: NodeListener;
  resolve<T>(ref: ServiceRef<T>): T;
  /** Runs plugin start hooks and starts background jobs. */
  start(): Promise<void>;
  /** Waits for in-flight requests and jobs, runs stop hooks, closes the database. */
  stop(): Promise<void>;
}

/** `/forge/` → `/forge`; '' for none. */
function normalizeBasePath(basePath: string | undefined): string {
  const trimmed = (basePath ?? '').replace(/\/+$/, '');
  if (trimmed === '') return '';
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed))
    throw new BootError(`basePath '${basePath}' must look like '/forge' (path segments of letters, digits, '.', '_', '~', '-')`);
  return trimmed;
}

/** `/-/metrics`, for local callers only, like the health checks. */
function metricsRoute(exposition: () => Promise<MetricsExposition>): Route<any> {
  return defineRoute({
    method: 'GET',
    path: '/-/metrics',
    raw: true,
    auth: 'none',
    // Prometheus' text format, version 0.0.4.
    response: { schema: { type: 'string' }, contentType: 'text/plain' },
    async handler(ctx) {
      if (!isLocalCaller(ctx.ip)) throw notFound();
      const { contentType, text } = await exposition();
      return raw(200, text, contentType);
    },
  });
}

function scopesOf(route: Route<any>): RouteInfo['scopes'] {
  if (route.auth === 'none') return Object.freeze([]);
  return route.scopes === 'handler' ? 'handler' : Object.freeze(scopesFor(route.method, route.scopes));
}

function routeInfo(pluginId: string, path: string, route: Route<any>): RouteInfo {
  const entries = (route.input?.schema as { entries?: Record<string, unknown> } | undefined)?.entries ?? {};
  return Object.freeze({
    pluginId,
    method: route.method,
    path,
    auth: route.auth ?? 'required',
    inputs: Object.freeze(Object.keys(entries)),
    fields: Object.freeze(Object.fromEntries(Object.entries(entries).map(([name, field]) => [name, describeField(field)]))),
    rules: Object.freeze((route.input?.rules ?? []).map(describeRule).filter((rule) => rule !== undefined)),
    scopes: scopesOf(route),
    streamBody: route.streamBody === true,
    paginated: route.paginated === true,
    uploads: route.uploads === true,
    basicAuth: route.basicAuth === true,
    response: route.response,
    exemptFrom: Object.freeze([...(route.exemptFrom ?? [])]),
  });
}

export async function createKernel(options: KernelOptions): Promise<Kernel> {
  // Phase one: everything static, checked before anything is opened or written.
  checkPlugins(options.plugins, KERNEL_VERSION);
  const { config, pluginConfigs } = checkConfig(options.config, options.plugins);
  const basePath = normalizeBasePath(options.basePath);
  const configuredUrl = config.externalUrl?.replace(/\/+$/, '');
  const externalUrl = configuredUrl ?? (options.serverUrl ?? `http://localhost:${config.port}${basePath}`).replace(/\/+$/, '');
  const plugins = orderPlugins(options.plugins);
  // The kernel's own tables come first, so a plugin that defines one of them fails the boot.
  const entities = collectEntities([{ id: 'kernel', entities: [InternalIdEntity] }, ...plugins]);
  const postgres = isPostgresUrl(config.databaseUrl);
  if (postgres) await requireOptionalPeers();
  const log = options.logger ?? createLogger(config.logLevel);
  const metrics = createMetrics();

  // Then the ORM once, and every migration.
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, entities, sqliteSynchronous: config.sqliteSynchronous });
  const stopTiming = timeStatements(database, metrics.observeStatement);
  let secrets: Secrets;
  try {
    const migrations: OwnedMigration[] = [
      ...kernelMigrations.map((migration) => ({ pluginId: 'kernel', migration })),
      ...plugins.flatMap((plugin) => (plugin.migrations ?? []).map((migration) => ({ pluginId: plugin.id, migration }))),
    ].map(({ pluginId, migration }) => ({
      pluginId,
      // Each migration says what it applies, so a long first start is not silent.
      migration: {
        ...migration,
        up: (knex) => {
          options.progress?.(`applying migration ${pluginId}:${migration.name}`);
          return migration.up(knex);
        },
      },
    }));
    const applied = await runMigrations(internalsOf(database).knex, migrations);
    if (applied.length > 0) log.info({ migrations: applied }, 'migrations applied');
    secrets = await openSecrets({
      secretsKey: config.secretsKey,
      secretsKeyFile: config.secretsKeyFile,
      dataDir: config.dataDir,
      knex: internalsOf(database).knex,
      log,
    });
  } catch (error) {
    stopTiming();
    await database.close();
    throw error;
  }

  const instance: InstanceInfo = { externalUrl, dataDir: resolve(config.dataDir), kernelVersion: KERNEL_VERSION };

  // One registry: the kernel's services and every plugin's, by their refs' ids.
  const container: DependencyContainer = rootContainer.createChildContainer();
  container.register(kernelTokens.config, { useValue: config });
  container.register(kernelTokens.logger, { useValue: log });
  container.register(kernelTokens.instance, { useValue: instance });
  container.register(kernelTokens.database, { useValue: database });
  container.register(kernelServices.secrets.id, { useValue: secrets });
  // Built by the registry from the tokens their constructors declare.
  container.registerSingleton(kernelServices.events.id, InProcessEventBus);
  container.registerSingleton<JobService>(kernelServices.jobs.id, postgres ? PgBossJobService : InProcessJobService);
  container.register(kernelServices.rateLimits.id, {
    useFactory: instanceCachingFactory((c) =>
      postgres ? postgresRateLimits(internalsOf(c.resolve<Database>(kernelTokens.database)).knex) : memoryRateLimits(),
    ),
  });
  container.register(kernelServices.files.id, {
    useFactory: instanceCachingFactory((c) => createFileStorage(join(c.resolve<InstanceInfo>(kernelTokens.instance).dataDir, 'files'))),
  });
  let maxFileSize = async () => DEFAULT_MAX_FILE_SIZE;
  const uploads: UploadLimits = { limitFileSize: (read) => void (maxFileSize = read) };
  container.register(kernelServices.uploads.id, { useValue: uploads });
  container.register(kernelServices.metrics.id, { useValue: metrics });
  container.register(kernelServices.presented.id, { useValue: createFragmentCache({ maxBytes: config.presentedCacheBytes }) });
  const provided = (id: string) => container.isRegistered(id);
  const provideValue = <T>(ref: ServiceRef<T>, value: T) => container.register(ref.id, { useValue: value });
  const events = container.resolve<EventBus>(kernelServices.events.id);
  const jobs = container.resolve<JobService>(kernelServices.jobs.id);
  // Every job a plugin defines is counted, wherever it runs (in-process, pg-boss, `jobs.run`).
  const pluginJobs: PluginContext<unknown>['jobs'] = {
    define: (name, handler) =>
      jobs.define(name, async (data: Parameters<typeof handler>[0]) => {
        try {
          await handler(data);
          metrics.countJob(name, false);
        } catch (error) {
          metrics.countJob(name, true);
          throw error;
        }
      }),
    enqueue: (name, data, enqueueOptions) => jobs.enqueue(name, data, enqueueOptions),
  };
  const files = container.resolve<FileStorage>(kernelServices.files.id);

  // Phase two: register in dependency order.
  const routes: { route: Route<any>; mounted: RouteInfo }[] = [];
  const guards: RouteGuard[] = [];
  const routeOwners: { pluginId: string; path: string }[] = [];
  const routeInfos: RouteInfo[] = [];
  const startHooks: (() => void | Promise<void>)[] = [];
  const stopHooks: (() => void | Promise<void>)[] = [];
  for (const plugin of plugins) {
    const allowed = new Set([
      ...Object.values(kernelServices).map((ref) => ref.id),
      ...(plugin.requires ?? []).map((ref) => ref.id),
      ...(plugin.provides ?? []).map((ref) => ref.id),
    ]);
    const optional = new Set((plugin.optional ?? []).map((ref) => ref.id));
    const ctx: PluginContext<any> = {
      pluginId: plugin.id,
      config: pluginConfigs.get(plugin.id),
      log: log.child({ plugin: plugin.id }),
      resolve: (ref) => {
        if (!allowed.has(ref.id)) throw new BootError(`Plugin '${plugin.id}' resolves service '${ref.id}' without listing it in 'requires'`);
        if (!provided(ref.id)) throw new BootError(`Plugin '${plugin.id}' resolves service '${ref.id}', which is not provided yet${packageHint(ref)}`);
        return container.resolve(ref.id);
      },
      resolveOptional: (ref) => {
        if (!optional.has(ref.id)) throw new BootError(`Plugin '${plugin.id}' resolves optional service '${ref.id}' without listing it in 'optional'`);
        return provided(ref.id) ? container.resolve(ref.id) : undefined;
      },
      provide: (ref, value) => {
        if (!(plugin.provides ?? []).some((own) => own.id === ref.id)) {
          throw new BootError(`Plugin '${plugin.id}' provides service '${ref.id}' without listing it in 'provides'`);
        }
        provideValue(ref, value);
      },
      routes: (...added) => {
        for (const route of added) {
          const path = basePath + (route.raw ? '' : API_PREFIX) + route.path;
          const mounted = routeInfo(plugin.id, path, route);
          routes.push({ route, mounted });
          routeOwners.push({ pluginId: plugin.id, path });
          routeInfos.push(mounted);
        }
      },
      guardRoutes: (guard) => {
        if (guards.some((known) => known.name === guard.name))
          throw new BootError(`Plugin '${plugin.id}' guards routes as '${guard.name}', a name another guard has`);
        guards.push(guard);
      },
      events,
      jobs: pluginJobs,
      lifecycle: { onStart: (fn) => startHooks.push(fn), onStop: (fn) => stopHooks.unshift(fn) },
    };
    await plugin.register(ctx);
    for (const ref of plugin.provides ?? []) {
      if (!provided(ref.id)) throw new BootError(`Plugin '${plugin.id}' lists service '${ref.id}' in 'provides' but did not provide it`);
    }
  }
  const metricsExposition = options.metricsExposition ?? (() => metrics.exposition());
  let document: OpenApiDocument | undefined;
  // Built on first use, once every route (these two included) is mounted.
  const openApi = () => (document ??= buildOpenApiDocument(routeInfos, { title: 'forgekit API', version: KERNEL_VERSION }));
  for (const route of [metricsRoute(metricsExposition), openApiRoute(openApi)]) {
    const path = basePath + (route.raw ? '' : API_PREFIX) + route.path;
    const mounted = routeInfo('kernel', path, route);
    routes.push({ route, mounted });
    routeOwners.push({ pluginId: 'kernel', path });
    routeInfos.push(mounted);
  }
  checkRouteParams(routeOwners);
  const needsIdentity = routes.some(({ route }) => (route.auth ?? 'required') !== 'none');
  if (needsIdentity && !provided(kernelServices.identity.id)) {
    throw new BootError(`Routes need authentication, but no plugin provides service '${kernelServices.identity.id}' (add the core plugin)`);
  }

  const inflight = { count: 0 };
  const app = createHttpApp({
    routes,
    guards,
    database,
    log,
    externalUrl: configuredUrl,
    fallbackUrl: externalUrl,
    basePath,
    trustProxy: config.trustProxy,
    metrics,
    identity: () => container.resolve(kernelServices.identity.id),
    inflight,
    limits: { maxBodySize: config.maxBodySize, uploadDir: join(instance.dataDir, 'tmp', 'uploads'), maxFileSize: () => maxFileSize() },
  });
  const fetch = toWebHandler(app) as unknown as (request: Request) => Promise<Response>;
  let stopped = false;

  return {
    config,
    database,
    events,
    jobs,
    files,
    log,
    metrics,
    plugins,
    routes: Object.freeze(routeInfos),
    openApi,
    fetch,
    nodeListener: toNodeListener(app) as NodeListener,
    resolve: <T>(ref: ServiceRef<T>) => {
      if (!provided(ref.id)) throw new BootError(`No plugin provides service '${ref.id}'${packageHint(ref)}`);
      return container.resolve<T>(ref.id);
    },
    async start() {
      for (const hook of startHooks) await hook();
      await jobs.start(config.schedules);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      const deadline = Date.now() + 30_000;
      while (inflight.count > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      await jobs.stop();
      for (const hook of stopHooks) await hook();
      stopTiming();
      await database.close();
    },
  };
}
