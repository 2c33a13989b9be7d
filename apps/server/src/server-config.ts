/**
 * The reference server's config: the same loader, defaults and validation for `serve`, the
 * other CLI commands and `config check`, so none of them can accept what another refuses.
 */
import { resolve } from 'node:path';
import { checkConfig, isPostgresUrl, loadConfig, type ForgePlugin, type KernelConfig, type KernelConfigInput, type LoadConfigOptions } from '@forgekit/kernel';
import { allPlugins, defaultSchedules } from './plugins.js';

export interface ServerConfigOptions {
  plugins?: readonly ForgePlugin<any>[];
  /** Where to read from (env and `FORGEKIT_CONFIG` by default). */
  config?: LoadConfigOptions;
}

export interface ServerConfig {
  readonly plugins: readonly ForgePlugin<any>[];
  /** What the kernel is given. */
  readonly input: KernelConfigInput;
  /** The validated settings. */
  readonly config: KernelConfig;
}

/** Reads and validates the config; throws a ConfigError listing every problem. Reads no data and writes nothing. */
export function readServerConfig(options: ServerConfigOptions = {}): ServerConfig {
  const plugins = options.plugins ?? allPlugins;
  const loaded = loadConfig({ ...options.config, plugins });
  // The reference server runs its default job schedules unless the config names its own.
  const input: KernelConfigInput = { schedules: plugins === allPlugins ? defaultSchedules : {}, ...loaded };
  return { plugins, input, config: checkConfig(input, plugins).config };
}

/** `postgres://user:***@host/db`: a database URL with its password hidden. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

/** Which data dir and database a config uses, in words: what the CLI says before it acts. */
export function describeStorage(config: KernelConfig): string {
  const dataDir = resolve(config.dataDir);
  if (isPostgresUrl(config.databaseUrl)) return `data dir ${dataDir}, database ${redactedUrl(config.databaseUrl)} (PostgreSQL)`;
  const file = config.databaseUrl ?? `${dataDir}/forgekit.sqlite`;
  return `data dir ${dataDir}, database ${file === ':memory:' ? 'in memory' : resolve(file)} (SQLite)`;
}
