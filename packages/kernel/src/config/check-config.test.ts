import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { definePlugin } from '../plugin/define-plugin.js';
import { checkConfig, ConfigError } from './check-config.js';
import { loadConfig } from './kernel-config.js';

const core = definePlugin({
  id: 'core',
  compatibility: '*',
  config: v.object({ rootToken: v.optional(v.string()), reportedVersion: v.optional(v.string(), '17.11.0') }),
  register: () => {},
});
const storages = definePlugin({
  id: 'storages',
  compatibility: '*',
  config: v.object({ storages: v.optional(v.record(v.string(), v.object({ path: v.string() })), {}), extra: v.optional(v.looseObject({})) }),
  register: () => {},
});
const bare = definePlugin({ id: 'bare', compatibility: '*', register: () => {} });
const plugins = [core, storages, bare];

/** The problems `checkConfig` lists for `input`, or [] when it passes. */
function problemsOf(input: unknown): readonly string[] {
  try {
    checkConfig(input as never, plugins);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('checkConfig', () => {
  it('answers the validated settings with their defaults, and each plugin section', () => {
    const { config, pluginConfigs } = checkConfig({ port: 4000, plugins: { core: { rootToken: 'x'.repeat(20) } } }, plugins);
    expect(config).toMatchObject({ port: 4000, host: '0.0.0.0', dataDir: './data', logLevel: 'info', schedules: {} });
    expect(pluginConfigs.get('core')).toEqual({ rootToken: 'x'.repeat(20), reportedVersion: '17.11.0' });
    expect(pluginConfigs.get('storages')).toEqual({ storages: {} });
    expect(pluginConfigs.get('bare')).toBeUndefined();
  });

  it('rejects an unknown key with its path and the keys it could have meant', () => {
    expect(problemsOf({ prot: 4000 })).toEqual([expect.stringMatching(/^Invalid server config at 'prot': unknown key \(known keys: dataDir, .*port.*\)$/)]);
  });

  it("rejects an unknown key in a plugin's section, at any depth", () => {
    expect(problemsOf({ plugins: { core: { reportedVersoin: '16.0.0' } } })).toEqual([
      "Plugin 'core' config is invalid at 'reportedVersoin': unknown key (known keys: rootToken, reportedVersion)",
    ]);
    expect(problemsOf({ plugins: { storages: { storages: { fast: { path: '/x', pth: '/y' } } } } })).toEqual([
      "Plugin 'storages' config is invalid at 'storages.fast.pth': unknown key (known keys: path)",
    ]);
    expect(problemsOf({ plugins: { bare: { anything: 1 } } })).toEqual([
      "Plugin 'bare' config is invalid at 'anything': unknown key (this section takes no keys)",
    ]);
  });

  it('lets a loose object take any key', () => {
    expect(problemsOf({ plugins: { storages: { extra: { whatever: true } } } })).toEqual([]);
  });

  it('rejects the section of a plugin the host does not compose', () => {
    expect(problemsOf({ plugins: { nosuchplugin: {} } })).toEqual([
      "Invalid server config at 'plugins.nosuchplugin': no plugin 'nosuchplugin' is composed (composed: core, storages, bare)",
    ]);
  });

  it('rejects a value the schema refuses, such as an unknown log level', () => {
    expect(problemsOf({ logLevel: 'verbose' })).toEqual([expect.stringMatching(/^Invalid server config at 'logLevel': Invalid type: Expected \("trace" \|/)]);
  });

  it("takes SQLite's synchronous setting from the file or the environment: full unless normal is chosen", () => {
    expect(checkConfig({}, plugins).config.sqliteSynchronous).toBe('full');
    expect(checkConfig({ sqliteSynchronous: 'normal' }, plugins).config.sqliteSynchronous).toBe('normal');
    const fromEnv = loadConfig({ env: { FORGEKIT_SQLITE_SYNCHRONOUS: 'NORMAL' } });
    expect(checkConfig(fromEnv, plugins).config.sqliteSynchronous).toBe('normal');
    expect(problemsOf({ sqliteSynchronous: 'off' })).toEqual(["Invalid server config at 'sqliteSynchronous': sqliteSynchronous must be full or normal"]);
  });

  it('checks the cron expressions of schedules and that their jobs belong to composed plugins', () => {
    expect(problemsOf({ schedules: { '* * * * *': ['core:tick'] } })).toEqual([]);
    expect(problemsOf({ schedules: { 'every minute': ['core:tick'], '0 * * * *': ['ghost:tick', 'Bad Name'] } })).toEqual([
      expect.stringMatching(/^Invalid server config at 'schedules.every minute': not a valid cron expression/),
      "Invalid server config at 'schedules.0 * * * *': job 'ghost:tick' belongs to plugin 'ghost', which is not composed",
      "Invalid server config at 'schedules.0 * * * *': job name 'Bad Name' must look like '<plugin-id>:<job>'",
    ]);
  });

  it('lists every problem at once, one line each', () => {
    let error: unknown;
    try {
      checkConfig({ prot: 1, logLevel: 'loud', plugins: { core: { rootTokn: 'x' } } } as never, plugins);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toHaveLength(3);
    expect((error as ConfigError).message.split('\n')).toEqual((error as ConfigError).problems);
  });
});
