/** The kernel's own settings and the loader that reads them from env and an optional JSON file. */
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { BootError } from '../plugin/boot-order.js';
import type { ForgePlugin } from '../plugin/define-plugin.js';
import { MIN_SECRETS_KEY_LENGTH } from '../services/secrets.js';

export const KernelConfigSchema = v.object({
  /** Where SQLite, uploaded files and repositories live. */
  dataDir: v.optional(v.string(), './data'),
  /** `postgres://...` for PostgreSQL; otherwise SQLite under dataDir (`:memory:` for tests). */
  databaseUrl: v.optional(v.string()),
  /**
   * How SQLite makes a commit durable (its `synchronous` pragma; PostgreSQL ignores it).
   * `full`: the write-ahead log is on disk before a write is answered, so a power cut or an
   * OS crash loses no answered write; concurrent writes commit together to share that sync.
   * `normal`: answered writes survive a crash of the server process, but a power cut or an
   * OS crash may lose the last ones (never corrupting the database).
   */
  sqliteSynchronous: v.optional(
    v.pipe(
      v.string(),
      v.transform((text) => text.toLowerCase()),
      v.picklist(['full', 'normal'], 'sqliteSynchronous must be full or normal'),
    ),
    'full',
  ),
  /** The URL clients reach the server at; used in `web_url` and Link headers. */
  externalUrl: v.optional(v.string()),
  port: v.optional(v.number(), 3000),
  host: v.optional(v.string(), '0.0.0.0'),
  /** Read the caller's address from `X-Forwarded-For` (only behind a proxy that sets it). */
  trustProxy: v.optional(
    v.union([
      v.boolean(),
      v.pipe(
        v.string(),
        v.transform((text) => ['1', 'true', 'yes', 'on'].includes(text.toLowerCase())),
      ),
    ]),
    false,
  ),
  /** The key secrets are sealed with at rest; every process sharing a database needs the same one. */
  secretsKey: v.optional(v.pipe(v.string(), v.minLength(MIN_SECRETS_KEY_LENGTH, `secretsKey must be at least ${MIN_SECRETS_KEY_LENGTH} characters`))),
  /** A file holding the secrets key. Without this or `secretsKey`, a key is generated at `<dataDir>/secrets.key`. */
  secretsKeyFile: v.optional(v.string()),
  logLevel: v.optional(v.picklist(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']), 'info'),
  /** Bytes a JSON, form or plain request body may hold (multipart fields together); larger ones get 413 as they arrive. */
  maxBodySize: v.optional(
    v.pipe(
      v.union([v.number(), v.pipe(v.string(), v.transform(Number))]),
      v.integer('maxBodySize must be a whole number of bytes'),
      v.minValue(1024, 'maxBodySize must be at least 1024 bytes'),
    ),
    8 * 1024 * 1024,
  ),
  /**
   * Bytes of presented JSON (projects, users, issues, labels) each server process keeps by
   * the versions of the rows it was built from, least recently used out first; 0 keeps none.
   */
  presentedCacheBytes: v.optional(
    v.pipe(
      v.union([v.number(), v.pipe(v.string(), v.transform(Number))]),
      v.integer('presentedCacheBytes must be a whole number of bytes'),
      v.minValue(0, 'presentedCacheBytes must not be negative'),
    ),
    32 * 1024 * 1024,
  ),
  /** Host-level job schedules: cron expression → job names (`'* * * * *': ['pipeline-schedules:tick']`). */
  schedules: v.optional(v.record(v.string(), v.array(v.string())), {}),
  /** One section per plugin id, validated by that plugin's schema. */
  plugins: v.optional(v.record(v.string(), v.unknown()), {}),
});

export type KernelConfig = v.InferOutput<typeof KernelConfigSchema>;
export type KernelConfigInput = v.InferInput<typeof KernelConfigSchema>;

/** Env variables of the kernel itself. Plugins declare their own in `definePlugin({ env })`. */
const KERNEL_ENV: Record<string, keyof KernelConfig> = {
  FORGEKIT_DATA_DIR: 'dataDir',
  FORGEKIT_DATABASE_URL: 'databaseUrl',
  FORGEKIT_SQLITE_SYNCHRONOUS: 'sqliteSynchronous',
  FORGEKIT_EXTERNAL_URL: 'externalUrl',
  PORT: 'port',
  HOST: 'host',
  FORGEKIT_LOG_LEVEL: 'logLevel',
  FORGEKIT_TRUST_PROXY: 'trustProxy',
  FORGEKIT_SECRETS_KEY: 'secretsKey',
  FORGEKIT_SECRETS_KEY_FILE: 'secretsKeyFile',
  FORGEKIT_MAX_BODY_SIZE: 'maxBodySize',
  FORGEKIT_PRESENTED_CACHE_BYTES: 'presentedCacheBytes',
};

export interface LoadConfigOptions {
  env?: Record<string, string | undefined>;
  /** A JSON file; defaults to `FORGEKIT_CONFIG` when set. */
  file?: string;
  /** The plugins whose `env` maps (env variable → config key) are read too. */
  plugins?: readonly Pick<ForgePlugin<unknown>, 'id' | 'env'>[];
}

/** The JSON object in `file`; a BootError naming the file when it cannot be read or is not one. */
function readConfigFile(file: string): Record<string, any> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new BootError(`Cannot read the config file ${file} (FORGEKIT_CONFIG): ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new BootError(`The config file ${file} (FORGEKIT_CONFIG) must hold a JSON object`);
  return parsed as Record<string, any>;
}

/** Reads env and the optional file into one raw config object (validated by `checkConfig`). */
export function loadConfig(options: LoadConfigOptions = {}): KernelConfigInput {
  const env = options.env ?? process.env;
  const file = options.file ?? env.FORGEKIT_CONFIG;
  const fromFile: Record<string, any> = file ? readConfigFile(file) : {};
  const config: Record<string, any> = { ...fromFile, plugins: { ...(fromFile.plugins ?? {}) } };
  for (const [name, key] of Object.entries(KERNEL_ENV)) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    config[key] = key === 'port' ? Number(value) : value;
  }
  for (const { id: pluginId, env: mapping } of options.plugins ?? []) {
    for (const [name, key] of Object.entries(mapping ?? {})) {
      const value = env[name];
      if (value === undefined || value === '') continue;
      config.plugins[pluginId] = { ...(config.plugins[pluginId] ?? {}), [key]: value };
    }
  }
  return config as KernelConfigInput;
}
