import { describe, expect, it } from 'vitest';
import type { Principal } from '../auth/identity.js';
import { createCommandContext, definePlugin, type CommandHost, type PluginCommand } from './define-plugin.js';
import { kernelServices } from './kernel-services.js';
import { createServiceRef } from './service-ref.js';

const withCommands = (commands: PluginCommand[]) => () => definePlugin({ id: 'demo', compatibility: '^0.1.0', commands, register() {} });
const run = () => 'ran';

describe('definePlugin commands', () => {
  it('accepts a command tree and keeps it on the plugin', () => {
    const command: PluginCommand = {
      name: 'demo-things',
      description: 'Things',
      subcommands: [{ name: 'show', description: 'Show one', options: { id: { type: 'string', description: 'Which', required: true, short: 'i' } }, run }],
    };
    expect(withCommands([command])().commands).toEqual([command]);
  });

  it.each([
    [[{ name: 'Demo', description: 'x', run }], "command 'Demo' must have a kebab-case name other than help"],
    [[{ name: 'help', description: 'x', run }], "command 'help' must have a kebab-case name other than help"],
    [
      [
        { name: 'a', description: 'x', run },
        { name: 'a', description: 'y', run },
      ],
      "command 'a' is defined twice",
    ],
    [[{ name: 'a', description: ' ', run }], "command 'a' has no description"],
    [[{ name: 'a', description: 'x' }], "command 'a' must have either a run function or subcommands"],
    [[{ name: 'a', description: 'x', run, subcommands: [{ name: 'b', description: 'y', run }] }], "command 'a' must have either a run function or subcommands"],
    [[{ name: 'a', description: 'x', subcommands: [] }], "command 'a' has no subcommands"],
    [[{ name: 'a', description: 'x', subcommands: [{ name: 'B', description: 'y', run }] }], "command 'a B' must have a kebab-case name"],
    [
      [{ name: 'a', description: 'x', options: { o: { type: 'string', description: 'o' } }, subcommands: [{ name: 'b', description: 'y', run }] }],
      "command 'a' has subcommands, so its options belong to them",
    ],
    [[{ name: 'a', description: 'x', run, options: { Bad: { type: 'string', description: 'o' } } }], "command 'a' has an option 'Bad'"],
    [[{ name: 'a', description: 'x', run, options: { o: { type: 'string', description: 'o', short: 'h' } } }], "command 'a' gives option 'o' the alias 'h'"],
    [
      [
        {
          name: 'a',
          description: 'x',
          run,
          options: { o: { type: 'string', description: 'o', short: 'x' }, p: { type: 'string', description: 'p', short: 'x' } },
        },
      ],
      "command 'a' gives option 'p' the alias 'x'",
    ],
    [
      [{ name: 'a', description: 'x', run, options: { o: { type: 'boolean', description: 'o', required: true } } }],
      "command 'a' makes the boolean option 'o' required",
    ],
  ] as [PluginCommand[], string][])('refuses %j', (commands, problem) => {
    expect(withCommands(commands)).toThrow(`Plugin 'demo' ${problem}`);
  });
});

describe('createCommandContext', () => {
  const own = createServiceRef<string>('demo.own', { packageName: '@forgekit/demo' });
  const needed = createServiceRef<string>('other.needed', { packageName: '@forgekit/other' });
  const maybe = createServiceRef<string>('other.maybe', { packageName: '@forgekit/other' });
  const absent = createServiceRef<string>('absent.service', { packageName: '@forgekit/absent' });
  const unlisted = createServiceRef<string>('other.unlisted', { packageName: '@forgekit/other' });
  const plugin = definePlugin({ id: 'demo', compatibility: '^0.1.0', provides: [own], requires: [needed], optional: [maybe, absent], register() {} });
  const other = definePlugin({ id: 'other', compatibility: '^0.1.0', provides: [needed, maybe, unlisted], register() {} });
  const values: Record<string, unknown> = {
    [own.id]: 'own',
    [needed.id]: 'needed',
    [maybe.id]: 'maybe',
    [unlisted.id]: 'unlisted',
    [kernelServices.database.id]: 'db',
  };
  const host: CommandHost = {
    plugins: [other, plugin],
    log: { child: () => host.log } as unknown as CommandHost['log'],
    events: {} as CommandHost['events'],
    resolve: <T>(ref: { id: string }) => values[ref.id] as T,
  };
  const admin: Principal = { id: 1, username: 'root', name: 'Administrator', isAdmin: true, external: false, state: 'active' };
  const ctx = createCommandContext(host, plugin, async () => admin);

  it('resolves kernel services and the services the plugin lists, as register does', async () => {
    expect(ctx.pluginId).toBe('demo');
    expect([ctx.resolve(own), ctx.resolve(needed), ctx.resolve(kernelServices.database)]).toEqual(['own', 'needed', 'db']);
    expect([ctx.resolveOptional(maybe), ctx.resolveOptional(absent)]).toEqual(['maybe', undefined]);
    expect(await ctx.administrator()).toBe(admin);
  });

  it('refuses a service the plugin does not list', () => {
    expect(() => ctx.resolve(unlisted)).toThrow("Plugin 'demo' resolves service 'other.unlisted' without listing it in 'requires'");
    expect(() => ctx.resolveOptional(needed)).toThrow("Plugin 'demo' resolves optional service 'other.needed' without listing it in 'optional'");
  });
});
