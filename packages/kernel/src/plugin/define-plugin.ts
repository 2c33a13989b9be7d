import type { EntitySchema } from '@mikro-orm/core';
import type * as v from 'valibot';
import type { Principal } from '../auth/identity.js';
import type { PluginMigration } from '../db/migrate.js';
import type { Route, RouteGuard } from '../http/route.js';
import type { EventBus } from '../services/events.js';
import type { JobService } from '../services/jobs.js';
import type { Logger } from '../services/logger.js';
import { kernelServices } from './kernel-services.js';
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
  /** Commands of the host's command line (`forgekit <name> ...`), run on the booted kernel. */
  readonly commands?: readonly PluginCommand[];
  register(ctx: PluginContext<C>): void | Promise<void>;
}

/** An option of a plugin command: `--name VALUE` (string) or `--name` (boolean). */
export interface PluginCommandOption {
  readonly type: 'string' | 'boolean';
  /** One line for the command's help. */
  readonly description: string;
  /** A string option's value as the help shows it: `--group PATH`. */
  readonly value?: string;
  /** A one-letter alias, `-g`. */
  readonly short?: string;
  /** The command line is refused without it. */
  readonly required?: boolean;
}

/** The options a command line gave, by option name. */
export type CommandValues = Readonly<Record<string, string | boolean | undefined>>;

/**
 * A command a plugin adds to the host's command line: either it runs, or it groups
 * subcommands (`forgekit saml-provider show`). The host lists commands in its help and
 * parses their options; `run` gets the booted kernel's services, not a request.
 */
export interface PluginCommand {
  /** kebab-case. */
  readonly name: string;
  /** One line, listed in the help of the command above it. */
  readonly description: string;
  /** More help, shown after the usage line. */
  readonly help?: string;
  readonly options?: Readonly<Record<string, PluginCommandOption>>;
  readonly subcommands?: readonly PluginCommand[];
  /** Answers what to print: text as it is, anything else as JSON; nothing prints nothing. Throws to fail. */
  run?(ctx: CommandContext, values: CommandValues): unknown;
}

/** What a plugin command runs with: the booted kernel's services, resolved as `register` resolves them. */
export interface CommandContext {
  readonly pluginId: string;
  readonly log: Logger;
  readonly events: EventBus;
  /** A kernel service, or a service the plugin lists in `requires` or `provides`. */
  resolve<T>(ref: ServiceRef<T>): T;
  /** A service listed in `optional`: undefined when no composed plugin provides it. */
  resolveOptional<T>(ref: ServiceRef<T>): T | undefined;
  /** The administrator the command acts as; the host decides who (the forgekit CLI: root). */
  administrator(): Promise<Principal>;
}

/** What `createCommandContext` needs of a booted kernel. */
export interface CommandHost {
  readonly plugins: readonly ForgePlugin<any>[];
  readonly log: Logger;
  readonly events: EventBus;
  resolve<T>(ref: ServiceRef<T>): T;
}

/** The context a command of `plugin` runs with on a booted kernel. */
export function createCommandContext(host: CommandHost, plugin: ForgePlugin<any>, administrator: () => Promise<Principal>): CommandContext {
  const kernelRefs = new Set(Object.values(kernelServices).map((ref) => ref.id));
  const listed = new Set([...(plugin.requires ?? []), ...(plugin.provides ?? [])].map((ref) => ref.id));
  const optional = new Set((plugin.optional ?? []).map((ref) => ref.id));
  return {
    pluginId: plugin.id,
    log: host.log.child({ plugin: plugin.id }),
    events: host.events,
    resolve(ref) {
      if (!kernelRefs.has(ref.id) && !listed.has(ref.id))
        throw new Error(`Plugin '${plugin.id}' resolves service '${ref.id}' without listing it in 'requires'`);
      return host.resolve(ref);
    },
    resolveOptional(ref) {
      if (!optional.has(ref.id)) throw new Error(`Plugin '${plugin.id}' resolves optional service '${ref.id}' without listing it in 'optional'`);
      const provided = host.plugins.some((composed) => (composed.provides ?? []).some((own) => own.id === ref.id));
      return provided ? host.resolve(ref) : undefined;
    },
    administrator,
  };
}

const KEBAB = /^[a-z][a-z0-9-]*$/;

/** Refuses a command tree the host could not parse: names, one of `run` or `subcommands`, option names and aliases. */
function checkCommands(pluginId: string, commands: readonly PluginCommand[], trail: string[]) {
  const seen = new Set<string>();
  for (const command of commands) {
    const name = [...trail, command.name].join(' ');
    const fail = (problem: string) => {
      throw new Error(`Plugin '${pluginId}' command '${name}' ${problem}`);
    };
    if (!KEBAB.test(command.name) || command.name === 'help') fail('must have a kebab-case name other than help');
    if (seen.has(command.name)) fail('is defined twice');
    seen.add(command.name);
    if (!command.description?.trim()) fail('has no description');
    if ((typeof command.run === 'function') === (command.subcommands !== undefined)) fail('must have either a run function or subcommands');
    if (command.subcommands !== undefined && command.options !== undefined) fail('has subcommands, so its options belong to them');
    const shorts = new Set<string>();
    for (const [option, spec] of Object.entries(command.options ?? {})) {
      if (!KEBAB.test(option) || option === 'help') fail(`has an option '${option}' that is not a kebab-case name other than help`);
      if (spec.short !== undefined && (!/^[a-zA-Z]$/.test(spec.short) || spec.short === 'h' || shorts.has(spec.short))) {
        fail(`gives option '${option}' the alias '${spec.short}', which is not one free letter other than h`);
      }
      if (spec.short !== undefined) shorts.add(spec.short);
      if (spec.required && spec.type !== 'string') fail(`makes the boolean option '${option}' required`);
    }
    if (command.subcommands) {
      if (command.subcommands.length === 0) fail('has no subcommands');
      checkCommands(pluginId, command.subcommands, [...trail, command.name]);
    }
  }
}

/** Declares a plugin. The object does nothing until a kernel boots it. */
export function definePlugin<C = undefined>(plugin: Omit<ForgePlugin<C>, 'version'> & { version?: typeof PLUGIN_CONTRACT_VERSION }): ForgePlugin<C> {
  if (!/^[a-z][a-z0-9-]*$/.test(plugin.id)) throw new Error(`Plugin id '${plugin.id}' must be kebab-case`);
  if (typeof plugin.register !== 'function') throw new Error(`Plugin '${plugin.id}' has no register function`);
  if (plugin.commands) checkCommands(plugin.id, plugin.commands, []);
  return Object.freeze({ ...plugin, version: PLUGIN_CONTRACT_VERSION });
}
