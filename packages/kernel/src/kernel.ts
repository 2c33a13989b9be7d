/** Boots plugins in two phases: collect and initialise the ORM once, then register in dependency order. */
import 'reflect-metadata';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { toNodeListener, toWebHandler } from 'h3';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import * as v from 'valibot';
import { KernelConfigSchema, type KernelConfig, type KernelConfigInput } from './config/kernel-config.js';
import { runMigrations, type OwnedMigration } from './db/migrate.js';
import { kernelMigrations } from './db/kernel-migrations.js';
import { isPostgresUrl, openDatabase, type Database } from './db/open-database.js';
import { API_PREFIX, createHttpApp } from './http/create-http-app.js';
import type { Route } from './http/route.js';
import { BootError, checkPlugins, checkRouteParams, collectEntities, orderPlugins } from './plugin/boot-order.js';
import { coreServices, type InstanceInfo } from './plugin/core-services.js';
import type { ForgePlugin, PluginContext } from './plugin/define-plugin.js';
import type { ServiceRef } from './plugin/service-ref.js';
import { createEventBus, type EventBus } from './services/events.js';
import { createFileStorage, type FileStorage } from './services/file-storage.js';
import { InProcessJobService, type JobService } from './services/jobs.js';
import { createLogger, type Logger } from './services/logger.js';
import { PgBossJobService } from './services/pg-boss-jobs.js';
import { memoryRateLimits, postgresRateLimits } from './services/rate-limit.js';

export const KERNEL_VERSION: string = createRequire(import.meta.url)('../package.json').version;

export interface KernelOptions {
  plugins: readonly ForgePlugin<any>[];
  /** Raw config (see `loadConfig`); validated here. */
  config?: KernelConfigInput;
  logger?: Logger;
}

export interface Kernel {
  readonly config: KernelConfig;
  readonly database: Database;
  readonly events: EventBus;
  readonly jobs: JobService;
  readonly files: FileStorage;
  readonly log: Logger;
  readonly plugins: readonly ForgePlugin<any>[];
  /** Fetch-style handler for in-process requests (tests). */
  readonly fetch: (request: Request) => Promise<Response>;
  /** Node `http` listener. */
  readonly nodeListener: ReturnType<typeof toNodeListener>;
  resolve<T>(ref: ServiceRef<T>): T;
  /** Runs plugin start hooks and starts background jobs. */
  start(): Promise<void>;
  /** Waits for in-flight requests and jobs, runs stop hooks, closes the database. */
  stop(): Promise<void>;
}

function validateConfig(input: KernelConfigInput | undefined): KernelConfig {
  const result = v.safeParse(KernelConfigSchema, input ?? {});
  if (!result.success) {
    const issue = result.issues[0]!;
    throw new BootError(`Invalid server config at '${v.getDotPath(issue) ?? '(root)'}': ${issue.message}`);
  }
  return result.output;
}

function validatePluginConfig(plugin: ForgePlugin<any>, raw: unknown): unknown {
  if (!plugin.config) return raw;
  const result = v.safeParse(plugin.config, raw ?? {});
  if (!result.success) {
    const issue = result.issues[0]!;
    throw new BootError(`Plugin '${plugin.id}' config is invalid at '${v.getDotPath(issue) ?? '(root)'}': ${issue.message}`);
  }
  return result.output;
}

export async function createKernel(options: KernelOptions): Promise<Kernel> {
  const config = validateConfig(options.config);
  const log = options.logger ?? createLogger(config.logLevel);
  const externalUrl = (config.externalUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, '');

  // Phase one: everything static, then the ORM once and every migration.
  checkPlugins(options.plugins, KERNEL_VERSION);
  const plugins = orderPlugins(options.plugins);
  const pluginConfigs = new Map(plugins.map((plugin) => [plugin.id, validatePluginConfig(plugin, config.plugins[plugin.id])]));
  const entities = collectEntities(plugins);
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, entities });
  try {
    const migrations: OwnedMigration[] = [
      ...kernelMigrations.map((migration) => ({ pluginId: 'kernel', migration })),
      ...plugins.flatMap((plugin) => (plugin.migrations ?? []).map((migration) => ({ pluginId: plugin.id, migration }))),
    ];
    const applied = await runMigrations(database.knex, migrations);
    if (applied.length > 0) log.info({ migrations: applied }, 'migrations applied');
  } catch (error) {
    await database.close();
    throw error;
  }

  const postgres = isPostgresUrl(config.databaseUrl);
  const events = createEventBus(log);
  const jobs: JobService = postgres ? new PgBossJobService(config.databaseUrl!, log) : new InProcessJobService(log);
  const files = createFileStorage(join(resolve(config.dataDir), 'files'));
  const instance: InstanceInfo = { externalUrl, dataDir: resolve(config.dataDir), kernelVersion: KERNEL_VERSION };

  const container: DependencyContainer = rootContainer.createChildContainer();
  const provided = new Map<string, unknown>();
  const provideValue = <T>(ref: ServiceRef<T>, value: T) => {
    provided.set(ref.id, value);
    container.register(ref.id, { useValue: value });
  };
  provideValue(coreServices.database, database);
  provideValue(coreServices.events, events);
  provideValue(coreServices.jobs, jobs);
  provideValue(coreServices.rateLimits, postgres ? postgresRateLimits(database.knex) : memoryRateLimits());
  provideValue(coreServices.files, files);
  provideValue(coreServices.logger, log);
  provideValue(coreServices.instance, instance);

  // Phase two: register in dependency order.
  const routes: Route<any>[] = [];
  const routeOwners: { pluginId: string; path: string }[] = [];
  const startHooks: (() => void | Promise<void>)[] = [];
  const stopHooks: (() => void | Promise<void>)[] = [];
  for (const plugin of plugins) {
    const allowed = new Set([...Object.values(coreServices).map((ref) => ref.id), ...(plugin.requires ?? []).map((ref) => ref.id), ...(plugin.provides ?? []).map((ref) => ref.id)]);
    const ctx: PluginContext<any> = {
      pluginId: plugin.id,
      config: pluginConfigs.get(plugin.id),
      log: log.child({ plugin: plugin.id }),
      resolve: (ref) => {
        if (!allowed.has(ref.id)) throw new BootError(`Plugin '${plugin.id}' resolves service '${ref.id}' without listing it in 'requires'`);
        if (!provided.has(ref.id)) throw new BootError(`Plugin '${plugin.id}' resolves service '${ref.id}', which is not provided yet`);
        return container.resolve(ref.id);
      },
      provide: (ref, value) => {
        if (!(plugin.provides ?? []).some((own) => own.id === ref.id)) {
          throw new BootError(`Plugin '${plugin.id}' provides service '${ref.id}' without listing it in 'provides'`);
        }
        provideValue(ref, value);
      },
      routes: (...added) => {
        routes.push(...added);
        for (const route of added) routeOwners.push({ pluginId: plugin.id, path: (route.raw ? '' : API_PREFIX) + route.path });
      },
      events,
      jobs,
      lifecycle: { onStart: (fn) => startHooks.push(fn), onStop: (fn) => stopHooks.unshift(fn) },
    };
    await plugin.register(ctx);
    for (const ref of plugin.provides ?? []) {
      if (!provided.has(ref.id)) throw new BootError(`Plugin '${plugin.id}' lists service '${ref.id}' in 'provides' but did not provide it`);
    }
  }
  checkRouteParams(routeOwners);
  const needsIdentity = routes.some((route) => (route.auth ?? 'required') !== 'none');
  if (needsIdentity && !provided.has(coreServices.identity.id)) {
    throw new BootError(`Routes need authentication, but no plugin provides service '${coreServices.identity.id}' (add the core plugin)`);
  }

  const inflight = { count: 0 };
  const app = createHttpApp({
    routes,
    database,
    container,
    log,
    externalUrl,
    trustProxy: config.trustProxy,
    identity: () => container.resolve(coreServices.identity.id),
    inflight,
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
    plugins,
    fetch,
    nodeListener: toNodeListener(app),
    resolve: <T>(ref: ServiceRef<T>) => {
      if (!provided.has(ref.id)) throw new BootError(`No plugin provides service '${ref.id}'`);
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
      await database.close();
    },
  };
}
