/**
 * The one validation of a config: the kernel's settings and every composed plugin's section.
 * `createKernel` runs it before it touches the data dir, and `forgekit config check` runs it
 * alone, so the two can never disagree. It reads nothing and writes nothing.
 */
import { Cron } from 'croner';
import * as v from 'valibot';
import { BootError } from '../plugin/boot-order.js';
import type { ForgePlugin } from '../plugin/define-plugin.js';
import { KernelConfigSchema, type KernelConfig, type KernelConfigInput } from './kernel-config.js';

export interface CheckedConfig {
  readonly config: KernelConfig;
  /** Each composed plugin's section, validated by its schema, by plugin id. */
  readonly pluginConfigs: ReadonlyMap<string, unknown>;
}

/** A config that does not validate; `problems` has one line per mistake, each naming its path. */
export class ConfigError extends BootError {
  override name = 'ConfigError';
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
  }
}

type AnySchema = v.GenericSchema & { entries?: Record<string, AnySchema>; wrapped?: AnySchema; value?: AnySchema; item?: AnySchema };

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Keys of `value` that `schema` does not declare, with their dot paths. valibot's `object`
 * drops unknown keys silently, and plugins declare their sections with it; walking the schema
 * here catches a misspelt key in any section without asking every plugin for a strict schema.
 * Loose objects (`v.looseObject`) accept any key, as they say.
 */
function unknownKeys(schema: AnySchema, value: unknown, path: string[]): { path: string; known: string[] }[] {
  if (schema.wrapped) return value === undefined || value === null ? [] : unknownKeys(schema.wrapped, value, path);
  if (!isPlainObject(value)) return [];
  if (schema.type === 'object' || schema.type === 'strict_object') {
    const entries = schema.entries!;
    const known = Object.keys(entries);
    return Object.keys(value).flatMap((key) =>
      Object.hasOwn(entries, key) ? unknownKeys(entries[key]!, value[key], [...path, key]) : [{ path: [...path, key].join('.'), known }],
    );
  }
  if (schema.type === 'record' && schema.value) return Object.keys(value).flatMap((key) => unknownKeys(schema.value!, value[key], [...path, key]));
  return [];
}

const knownList = (known: readonly string[]) => (known.length > 0 ? `known keys: ${known.join(', ')}` : 'this section takes no keys');

function issuesOf(issues: readonly v.BaseIssue<unknown>[]): { path: string; message: string }[] {
  return issues.map((issue) => ({ path: v.getDotPath(issue) ?? '(root)', message: issue.message }));
}

/**
 * Validates `input` for a host composing `plugins`: types and values, unknown keys at any
 * depth (`prot`, `plugins.core.reportedVersoin`), and sections of plugins the host does not
 * compose (`plugins.nosuchplugin`). Throws a ConfigError listing every problem.
 */
export function checkConfig(input: KernelConfigInput | undefined, plugins: readonly Pick<ForgePlugin<any>, 'id' | 'config'>[]): CheckedConfig {
  const raw: unknown = input ?? {};
  const problems: string[] = [];
  const serverProblem = (path: string, message: string) => problems.push(`Invalid server config at '${path}': ${message}`);
  const pluginProblem = (id: string, path: string, message: string) => problems.push(`Plugin '${id}' config is invalid at '${path}': ${message}`);

  for (const { path, known } of unknownKeys(KernelConfigSchema as AnySchema, raw, [])) serverProblem(path, `unknown key (${knownList(known)})`);
  const result = v.safeParse(KernelConfigSchema, raw);
  if (!result.success) for (const issue of issuesOf(result.issues)) serverProblem(issue.path, issue.message);

  const sections = isPlainObject(raw) && isPlainObject(raw.plugins) ? raw.plugins : {};
  const composed = new Set(plugins.map((plugin) => plugin.id));
  for (const id of Object.keys(sections)) {
    if (!composed.has(id)) serverProblem(`plugins.${id}`, `no plugin '${id}' is composed (composed: ${[...composed].join(', ') || 'none'})`);
  }
  // Schedules: each cron expression parses, and each job belongs to a composed plugin (the
  // job itself is known once plugins register; `jobs.start` checks that).
  const schedules = result.success ? result.output.schedules : {};
  for (const [cron, names] of Object.entries(schedules)) {
    try {
      new Cron(cron, { paused: true }).stop();
    } catch (error) {
      serverProblem(`schedules.${cron}`, `not a valid cron expression (${(error as Error).message})`);
    }
    for (const name of names) {
      const pluginId = /^([a-z0-9-]+):[a-z0-9-]+$/.exec(name)?.[1];
      if (!pluginId) serverProblem(`schedules.${cron}`, `job name '${name}' must look like '<plugin-id>:<job>'`);
      else if (!composed.has(pluginId)) serverProblem(`schedules.${cron}`, `job '${name}' belongs to plugin '${pluginId}', which is not composed`);
    }
  }

  const pluginConfigs = new Map<string, unknown>();
  for (const plugin of plugins) {
    const section = sections[plugin.id];
    if (!plugin.config) {
      if (isPlainObject(section) && Object.keys(section).length > 0) {
        for (const key of Object.keys(section)) pluginProblem(plugin.id, key, `unknown key (${knownList([])})`);
      }
      pluginConfigs.set(plugin.id, section);
      continue;
    }
    for (const { path, known } of unknownKeys(plugin.config as AnySchema, section ?? {}, []))
      pluginProblem(plugin.id, path, `unknown key (${knownList(known)})`);
    const parsed = v.safeParse(plugin.config, section ?? {});
    if (parsed.success) pluginConfigs.set(plugin.id, parsed.output);
    else for (const issue of issuesOf(parsed.issues)) pluginProblem(plugin.id, issue.path, issue.message);
  }

  if (problems.length > 0 || !result.success) throw new ConfigError(problems);
  return { config: result.output, pluginConfigs };
}
