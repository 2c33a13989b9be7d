import type { EntitySchema } from '@mikro-orm/core';
import type * as v from 'valibot';
import type { PluginMigration } from '../db/migrate.js';
import type { Route, RouteGuard } from '../http/route.js';
import type { EventBus } from '../services/events.js';
import type { JobService } from '../services/jobs.js';
import type { Logger } from '../services/logger.js';
import type { ServiceRef } from './service-ref.js';

/** The version of the plugin contract this kernel speaks. */
export const PLUGIN_CONTRACT_VERSION = 1;

export interface Lifecycle {
  /** Runs after every plugin registered, before the server takes requests. */
  onStart(fn: () => void | Promise<void>): void;
  /** Runs on shutdown, after in-flight requests finished, in reverse plugin order. */
  onStop(fn: () => void | Promise<void>): void;
}

export interface PluginContext<C> {
  readonly pluginId: string;
  readonly config: C;
  readonly log: Logger;
  /** A service another plugin (listed in `requires`) or the kernel provides. */
  resolve<T>(ref: ServiceRef<T>): T;
  /** A service listed in `optional`: undefined when no plugin of this host provides it. */
  resolveOptional<T>(ref: ServiceRef<T>): T | undefined;
  /** Provides a service this plugin lists in `provides`. */
  provide<T>(ref: ServiceRef<T>, instance: T): void;
  routes(...routes: Route<any>[]): void;
  /** A rule for every route it applies to, of every plugin the host composes (see `RouteGuard`). */
  guardRoutes(guard: RouteGuard): void;
  readonly events: EventBus;
  readonly jobs: Pick<JobService, 'define' | 'enqueue'>;
  readonly lifecycle: Lifecycle;
}

export interface ForgePlugin<C = unknown> {
  /** kebab-case, unique. */
  readonly id: string;
  /** Plugin contract version. */
  readonly version: typeof PLUGIN_CONTRACT_VERSION;
  /** Semver range of `@forgekit/kernel` this plugin works with. */
  readonly compatibility: string;
  /** valibot schema for `config.plugins[id]`. */
  readonly config?: v.GenericSchema<unknown, C>;
  /** Env variable → key of this plugin's config, read by the kernel's config loader. */
  readonly env?: Readonly<Record<string, string>>;
  readonly entities?: readonly EntitySchema<any, any>[];
  readonly migrations?: readonly PluginMigration[];
  /** Services this plugin provides in `register`. */
  readonly provides?: readonly ServiceRef<unknown>[];
  /** Services of other plugins this plugin resolves; they decide the boot order. */
  readonly requires?: readonly ServiceRef<unknown>[];
  /** Services this plugin uses when the host composes a plugin that provides them; such a provider registers first. */
  readonly optional?: readonly ServiceRef<unknown>[];
  register(ctx: PluginContext<C>): void | Promise<void>;
}

/** Declares a plugin. The object does nothing until a kernel boots it. */
export function definePlugin<C = undefined>(plugin: Omit<ForgePlugin<C>, 'version'> & { version?: typeof PLUGIN_CONTRACT_VERSION }): ForgePlugin<C> {
  if (!/^[a-z][a-z0-9-]*$/.test(plugin.id)) throw new Error(`Plugin id '${plugin.id}' must be kebab-case`);
  if (typeof plugin.register !== 'function') throw new Error(`Plugin '${plugin.id}' has no register function`);
  return Object.freeze({ ...plugin, version: PLUGIN_CONTRACT_VERSION });
}
