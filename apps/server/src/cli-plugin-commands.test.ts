import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServiceRef, definePlugin, validationFailed, type ForgePlugin } from '@forgekit/kernel';
import { corePlugin, coreUsersRef } from '@forgekit/plugin-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-commands.js';

const echoRef = createServiceRef<{ shout(text: string): string }>('cli-echo.echo', { packageName: '@forgekit/cli-echo' });

/** A plugin with a command tree: one command that runs on the booted kernel, one that breaks the rules, one that refuses. */
const echoPlugin = definePlugin({
  id: 'cli-echo',
  compatibility: '^0.1.0',
  provides: [echoRef],
  commands: [
    {
      name: 'echo',
      description: 'Say things back',
      subcommands: [
        {
          name: 'say',
          description: 'Print the text',
          help: 'Says it as the administrator.',
          options: {
            text: { type: 'string', value: 'TEXT', description: 'What to say', required: true },
            loud: { type: 'boolean', short: 'l', description: 'Shout it' },
          },
          async run(ctx, values) {
            const admin = await ctx.administrator();
            const text = values.loud ? ctx.resolve(echoRef).shout(values.text as string) : values.text;
            return { text, as: admin.username, admin: admin.isAdmin, plugin: ctx.pluginId };
          },
        },
        { name: 'peek', description: 'Resolve a service the plugin does not list', run: (ctx) => ctx.resolve(coreUsersRef) },
        {
          name: 'refuse',
          description: 'Refuse as a service does',
          run: () => {
            throw validationFailed({ name: ["can't be blank", 'is too short'] });
          },
        },
        { name: 'plain', description: 'Print a line', run: () => 'done' },
      ],
    },
  ],
  register(ctx) {
    ctx.provide(echoRef, { shout: (text) => text.toUpperCase() });
  },
});

const plugins = [corePlugin, echoPlugin];

async function cli(argv: string[], composed: readonly ForgePlugin<any>[] = plugins) {
  let out = '';
  let err = '';
  const status = await runCli(argv, { out: (text) => void (out += text), err: (text) => void (err += text) }, { plugins: composed });
  return { status, out, err };
}

describe('plugin commands', { timeout: 60_000 }, () => {
  let root: string;
  const saved = process.env.FORGEKIT_DATA_DIR;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'forgekit-plugin-commands-'));
    process.env.FORGEKIT_DATA_DIR = join(root, 'data');
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.FORGEKIT_DATA_DIR;
    else process.env.FORGEKIT_DATA_DIR = saved;
    await rm(root, { recursive: true, force: true });
  });

  it('are listed in the help, apart from the built-in commands, with their options', async () => {
    const top = await cli(['--help']);
    expect(top.status).toBe(0);
    expect(top.out).toMatch(/\nCommands:\n {2}serve .*\n(?:.*\n)* {2}help .*\n\nCommands of the plugins:\n {2}echo +Say things back \(cli-echo\)\n/);

    const group = await cli(['echo', '--help']);
    expect(group.out).toMatch(/^Usage: forgekit echo <command>\n\nSay things back \(the cli-echo plugin's command\)\.\n/);
    expect(group.out).toMatch(/\nCommands:\n {2}say +Print the text\n {2}peek /);

    for (const argv of [
      ['echo', 'say', '--help'],
      ['help', 'echo', 'say'],
    ]) {
      const { status, out, err } = await cli(argv);
      expect({ status, err }).toEqual({ status: 0, err: '' });
      expect(out).toBe(
        [
          'Usage: forgekit echo say --text TEXT [--loud]',
          '',
          "Print the text (the cli-echo plugin's command).",
          '',
          'Says it as the administrator.',
          '',
          'Options:',
          '  --text TEXT     What to say (required)',
          '  -l, --loud      Shout it',
          '  -h, --help      Show this help',
          '',
        ].join('\n'),
      );
    }
  });

  it('refuse a missing required option, an unknown option or subcommand with status 2, before booting', async () => {
    expect(await cli(['echo', 'say'])).toEqual({ status: 2, out: '', err: "--text is required. Run 'forgekit echo say --help' for usage.\n" });
    expect(await cli(['echo', 'say', '--text', 'hi', '--bogus'])).toMatchObject({ status: 2, err: expect.stringContaining("Unknown option '--bogus'") });
    expect(await cli(['echo', 'sing'])).toEqual({
      status: 2,
      out: '',
      err: "Unknown command 'sing' for 'forgekit echo'. Run 'forgekit echo --help' for usage.\n",
    });
  });

  it('run on the kernel booted on the configured data dir, as the administrator, printing JSON or text on stdout', async () => {
    const said = await cli(['echo', 'say', '--text', 'hello', '-l']);
    expect(said.err).toMatch(new RegExp(`^forgekit: data dir ${join(root, 'data')}, database .*\\(SQLite\\)\\n`));
    expect(said.status, said.err).toBe(0);
    expect(JSON.parse(said.out)).toEqual({ text: 'HELLO', as: 'root', admin: true, plugin: 'cli-echo' });
    expect(await cli(['echo', 'plain'])).toMatchObject({ status: 0, out: 'done\n' });
  });

  it("fail with status 1 and the service's refusal in words", async () => {
    const refused = await cli(['echo', 'refuse']);
    expect(refused.status).toBe(1);
    expect(refused.out).toBe('');
    expect(refused.err).toMatch(/\nname can't be blank\nname is too short\n$/);
    const peeked = await cli(['echo', 'peek']);
    expect(peeked.status).toBe(1);
    expect(peeked.err).toContain("Plugin 'cli-echo' resolves service 'core.users' without listing it in 'requires'");
  });

  it('may not take the name of a built-in command or of another plugin', async () => {
    const clash = definePlugin({
      id: 'clash',
      compatibility: '^0.1.0',
      commands: [{ name: 'token', description: 'Another token command', run: () => 'no' }],
      register() {},
    });
    expect(await cli(['--help'], [corePlugin, clash])).toEqual({
      status: 1,
      out: '',
      err: "The clash plugin's command 'token' is already a command of forgekit\n",
    });
    const twin = definePlugin({ id: 'twin', compatibility: '^0.1.0', commands: [{ name: 'echo', description: 'Echo again', run: () => 'no' }], register() {} });
    expect(await cli(['--help'], [corePlugin, echoPlugin, twin])).toMatchObject({
      status: 1,
      err: "The twin plugin's command 'echo' is already a command of the cli-echo plugin\n",
    });
  });
});
