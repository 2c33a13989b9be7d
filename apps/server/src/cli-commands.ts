/**
 * The `forgekit` commands. Arguments are parsed by node:util's parseArgs; this file only
 * arranges the commands in a tree so that `--help`, `-h` and `help` work at every level,
 * and an unknown command or option exits 2 with a hint.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import {
  ApiError,
  ConfigError,
  createCommandContext,
  createKernel,
  generateSecretsKey,
  isPostgresUrl,
  KERNEL_VERSION,
  requireOptionalPeers,
  type ForgePlugin,
  type Kernel,
  type PluginCommand,
} from '@forgekit/kernel';
import { ALL_SCOPES, coreTokensRef, coreUsersRef, ensureRootUser, principalOf, ROOT_USERNAME } from '@forgekit/plugin-core';
import { ITERATION_CADENCE_OPTIONS, ITERATION_CADENCES_USAGE, iterationCadencesCommand } from './iteration-cadences-cli.js';
import { allPlugins } from './plugins.js';
import { describeStorage, readServerConfig } from './server-config.js';
import { SERVE_USAGE, serve, workerCount } from './serve.js';

const VERSION: string = createRequire(import.meta.url)('../package.json').version;

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | undefined>;

interface Command {
  name: string;
  summary: string;
  /** The help text; subcommands are listed after it. */
  usage: string;
  options?: Options;
  /** Takes positional arguments (after the options). */
  positionals?: boolean;
  /** The help's lines for `options`, before `-h, --help`. */
  optionHelp?: [flags: string, description: string][];
  /** The plugin that contributes the command; the top help lists these apart. */
  pluginId?: string;
  subcommands?: Command[];
  /** `args` are the command's own arguments as given, already checked against `options`. */
  run?(values: Values, positionals: string[], args: string[]): Promise<void>;
}

/** A mistake in the command line: exit 2, with the help to read. */
class UsageError extends Error {}

/** Where a command writes: `out` is what it answers (stdout), `err` its progress, notes and errors (stderr). */
export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

let io: CliOutput = { out: (text) => void process.stdout.write(text), err: (text) => void process.stderr.write(text) };

/** The plugins the commands boot: the reference server's, or those a caller of `runCli` gives. */
let composed: readonly ForgePlugin<any>[] = allPlugins;

/** Progress and notes go to stderr, so stdout carries only what a command answers. */
const note = (text: string) => io.err(`${text}\n`);

/** Reads and validates the config as the server does; says which data dir and database it names. */
function serverConfig() {
  const read = readServerConfig(composed === allPlugins ? {} : { plugins: composed });
  note(`forgekit: ${describeStorage(read.config)}`);
  return read;
}

/** Boots the kernel on the configured database (migrating it, with progress), without serving or starting jobs. */
async function boot(): Promise<Kernel> {
  const { plugins, input } = serverConfig();
  return createKernel({ plugins, config: { ...input, logLevel: 'warn' }, progress: note });
}

async function withKernel(work: (kernel: Kernel) => Promise<void>) {
  const kernel = await boot();
  try {
    await work(kernel);
  } finally {
    await kernel.stop();
  }
}

/**
 * Boots the configured plugins on an in-memory database in a scratch dir, so a command
 * that only needs the plugins' registrations (job names, routes) writes nothing where the server keeps data.
 */
async function withScratchKernel(work: (kernel: Kernel) => Promise<void> | void) {
  const { plugins, input, config } = serverConfig();
  if (isPostgresUrl(config.databaseUrl)) await requireOptionalPeers();
  const scratch = await mkdtemp(join(tmpdir(), 'forgekit-scratch-'));
  try {
    const kernel = await createKernel({
      plugins,
      config: { ...input, dataDir: scratch, databaseUrl: ':memory:', secretsKey: generateSecretsKey(), secretsKeyFile: undefined, logLevel: 'silent' },
    });
    try {
      await work(kernel);
    } finally {
      await kernel.stop();
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function configCheck() {
  // The job names in `schedules` are known once plugins register.
  await withScratchKernel((kernel) => {
    try {
      kernel.jobs.checkSchedules(kernel.config.schedules);
    } catch (error) {
      throw new ConfigError([`Invalid server config at 'schedules': ${(error as Error).message}`]);
    }
  });
  io.out('config is valid\n');
}

async function openApi(values: Values) {
  await withScratchKernel(async (kernel) => {
    const text = `${JSON.stringify(kernel.openApi(), null, 2)}\n`;
    const file = values.output as string | undefined;
    if (file === undefined) return io.out(text);
    await writeFile(file, text);
    note(`wrote the OpenAPI document of ${kernel.routes.length} routes to ${resolve(file)}`);
  });
}

async function migrate() {
  const started = Date.now();
  let applied = 0;
  const { plugins, input } = serverConfig();
  const kernel = await createKernel({
    plugins,
    config: { ...input, logLevel: 'warn' },
    progress: (message) => {
      applied++;
      note(message);
    },
  });
  await kernel.stop();
  io.out(applied === 0 ? 'migrations are up to date\n' : `${applied} migrations applied in ${Date.now() - started} ms\n`);
}

async function createToken(values: Values) {
  const username = values.username as string;
  const scopes = values.scopes ? (values.scopes as string).split(',').map((scope) => scope.trim()) : [...ALL_SCOPES];
  const unknown = scopes.filter((scope) => !(ALL_SCOPES as readonly string[]).includes(scope));
  if (unknown.length > 0) throw new UsageError(`Unknown scopes: ${unknown.join(', ')} (known: ${ALL_SCOPES.join(', ')})`);
  await withKernel(async (kernel) => {
    const users = kernel.resolve(coreUsersRef);
    const user = username === ROOT_USERNAME ? await ensureRootUser(users) : await users.findByUsername(username);
    if (!user) throw new Error(`No user named '${username}'`);
    const { secret } = await kernel
      .resolve(coreTokensRef)
      .create({ userId: user.id, name: values.name as string, scopes, expiresAt: (values['expires-at'] as string | undefined) ?? null });
    io.out(`${secret}\n`);
  });
}

async function runJob(values: Values, [name]: string[]) {
  if (!name) throw new UsageError('Name the job to run (forgekit jobs list shows them)');
  let data: unknown;
  try {
    data = values.data === undefined ? undefined : JSON.parse(values.data as string);
  } catch (error) {
    throw new UsageError(`--data is not JSON: ${(error as Error).message}`);
  }
  await withKernel(async (kernel) => {
    if (!kernel.jobs.names.includes(name)) throw new UsageError(`Unknown job '${name}' (defined: ${kernel.jobs.names.join(', ')})`);
    const started = Date.now();
    note(`running job ${name}...`);
    await kernel.jobs.run(name, data);
    note(`job ${name} finished in ${Date.now() - started} ms`);
  });
}

const iterationCadenceCommand = (name: string, summary: string): Command => ({
  name,
  summary,
  usage: `Usage:\n${ITERATION_CADENCES_USAGE}`,
  options: ITERATION_CADENCE_OPTIONS,
  run: (_values, _positionals, args) => withKernel(async (kernel) => void io.out(`${await iterationCadencesCommand(kernel, name, args)}\n`)),
});

/** What a plugin command answers, on stdout: text as it is, anything else as JSON. */
function print(answer: unknown) {
  if (answer === undefined || answer === null) return;
  const text = typeof answer === 'string' ? answer : JSON.stringify(answer, null, 2);
  io.out(text.endsWith('\n') ? text : `${text}\n`);
}

/** A plugin command as a node of the command tree: its help, its options, and a run that boots the kernel. */
function pluginCommandNode(plugin: ForgePlugin<any>, command: PluginCommand, trail: string[]): Command {
  const path = ['forgekit', ...trail, command.name].join(' ');
  const options = Object.entries(command.options ?? {});
  const flags = (name: string, spec: (typeof options)[number][1]) =>
    `${spec.short ? `-${spec.short}, ` : ''}--${name}${spec.type === 'string' ? ` ${spec.value ?? 'VALUE'}` : ''}`;
  const synopsis = options.map(([name, spec]) => {
    const flag = `--${name}${spec.type === 'string' ? ` ${spec.value ?? 'VALUE'}` : ''}`;
    return spec.required ? flag : `[${flag}]`;
  });
  const usage = [
    `Usage: ${[path, ...(command.subcommands ? ['<command>'] : []), ...synopsis].join(' ')}`,
    '',
    `${command.description} (the ${plugin.id} plugin's command).`,
    ...(command.help ? ['', command.help] : []),
  ].join('\n');
  return {
    name: command.name,
    summary: command.description,
    usage,
    pluginId: plugin.id,
    subcommands: command.subcommands?.map((sub) => pluginCommandNode(plugin, sub, [...trail, command.name])),
    options: Object.fromEntries(options.map(([name, spec]) => [name, { type: spec.type, ...(spec.short ? { short: spec.short } : {}) }])),
    optionHelp: options.map(([name, spec]) => [flags(name, spec), `${spec.description}${spec.required ? ' (required)' : ''}`]),
    run: command.run
      ? async (values) => {
          const missing = options.filter(([name, spec]) => spec.required && (values[name] === undefined || values[name] === ''));
          if (missing.length > 0) throw new UsageError(`${missing.map(([name]) => `--${name}`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} required`);
          await withKernel(async (kernel) => {
            // The command line acts as the administrator, as `token create` does: root, created if needed.
            const administrator = async () => principalOf(await ensureRootUser(kernel.resolve(coreUsersRef)));
            print(await command.run!(createCommandContext(kernel, plugin, administrator), values));
          });
        }
      : undefined,
  };
}

/** The commands the composed plugins contribute; a name taken twice is refused. */
function pluginCommands(builtIn: readonly Command[]): Command[] {
  const taken = new Map(builtIn.map((command) => [command.name, 'forgekit']));
  const nodes: Command[] = [];
  for (const plugin of composed) {
    for (const command of plugin.commands ?? []) {
      const owner = taken.get(command.name);
      if (owner)
        throw new Error(
          `The ${plugin.id} plugin's command '${command.name}' is already a command of ${owner === 'forgekit' ? 'forgekit' : `the ${owner} plugin`}`,
        );
      taken.set(command.name, plugin.id);
      nodes.push(pluginCommandNode(plugin, command, []));
    }
  }
  return nodes;
}

const TOP_USAGE = `Usage: forgekit <command> [options]

The forgekit server and its administration commands. Every command reads the config as
the server does (the environment and FORGEKIT_CONFIG) and says which data dir and
database it uses on stderr; results go to stdout.`;

/** The built-in commands; `rootCommand` adds those of the plugins. */
const builtIn: Command = {
  name: 'forgekit',
  summary: '',
  usage: TOP_USAGE,
  subcommands: [
    {
      name: 'serve',
      summary: 'Run the built server (SIGTERM or SIGINT stops it gracefully)',
      usage: SERVE_USAGE,
      options: { workers: { type: 'string' } },
      async run(values) {
        const workers = workerCount(values.workers as string | undefined);
        if (typeof workers === 'string') throw new UsageError(workers);
        await serve(workers);
      },
    },
    {
      name: 'migrate',
      summary: 'Apply pending migrations, printing each, and exit',
      usage: 'Usage: forgekit migrate\n\nApplies the migrations the server would apply at start, printing each one, and exits.',
      run: migrate,
    },
    {
      name: 'openapi',
      summary: 'Print the OpenAPI 3.1 document of the API (or write it to a file)',
      usage: `Usage: forgekit openapi [--output FILE]

Prints the OpenAPI 3.1 document the server serves at /api/v4/openapi.json, built from
the routes of the configured plugins, on stdout, or writes it to FILE. Reads no data
and writes nothing else.`,
      options: { output: { type: 'string', short: 'o' } },
      run: openApi,
    },
    {
      name: 'config',
      summary: 'Check the config',
      usage: 'Usage: forgekit config <command>',
      subcommands: [
        {
          name: 'check',
          summary: 'Validate the config as the server does; writes nothing',
          usage:
            'Usage: forgekit config check\n\nValidates the config exactly as the server does (unknown keys included) and exits 0\nwhen it is valid, 1 with every problem otherwise. Reads no data and writes nothing.',
          run: configCheck,
        },
      ],
    },
    {
      name: 'token',
      summary: 'Personal access tokens',
      usage: 'Usage: forgekit token <command>',
      subcommands: [
        {
          name: 'create',
          summary: 'Create a token and print its secret (creates root if needed)',
          usage: `Usage: forgekit token create [--username root] [--name NAME] [--scopes api,read_user] [--expires-at YYYY-MM-DD]

Creates a personal access token and prints its secret on stdout (shown once).
--scopes defaults to every scope; --username root creates the administrator root if needed.`,
          options: {
            username: { type: 'string', default: ROOT_USERNAME },
            name: { type: 'string', default: 'cli' },
            scopes: { type: 'string' },
            'expires-at': { type: 'string' },
          },
          run: createToken,
        },
      ],
    },
    {
      name: 'iteration-cadences',
      summary: "Manage a group's iteration cadences as the administrator",
      usage: `Usage:\n${ITERATION_CADENCES_USAGE}`,
      subcommands: [
        iterationCadenceCommand('list', "List a group's cadences"),
        iterationCadenceCommand('create', 'Create a cadence'),
        iterationCadenceCommand('update', 'Change a cadence'),
        iterationCadenceCommand('delete', 'Delete a cadence'),
        iterationCadenceCommand('schedule', "Create an automatic cadence's upcoming iterations now"),
      ],
    },
    {
      name: 'jobs',
      summary: 'Background jobs',
      usage: 'Usage: forgekit jobs <command>',
      subcommands: [
        {
          name: 'list',
          summary: 'List the jobs the plugins define',
          usage: 'Usage: forgekit jobs list',
          run: () => withKernel(async (kernel) => void io.out(`${kernel.jobs.names.join('\n')}\n`)),
        },
        {
          name: 'run',
          summary: 'Run a job once in this process, printing progress',
          usage: 'Usage: forgekit jobs run NAME [--data JSON]\n\nRuns a job now, in this process, and waits for it (for example storage-moves:recover).',
          options: { data: { type: 'string' } },
          positionals: true,
          run: runJob,
        },
      ],
    },
    {
      name: 'help',
      summary: 'Show help for a command (forgekit help token create)',
      usage: 'Usage: forgekit help [command...]',
    },
  ],
};

/** The command tree: the built-in commands, then those of the composed plugins. */
const rootCommand = (): Command => ({ ...builtIn, subcommands: [...builtIn.subcommands!, ...pluginCommands(builtIn.subcommands!)] });

function helpOf(command: Command, trail: string[]): string {
  const lines = [command.usage];
  if (command.subcommands) {
    const width = Math.max(...command.subcommands.map((sub) => sub.name.length));
    const own = command.subcommands.filter((sub) => trail.length > 0 || sub.pluginId === undefined);
    const fromPlugins = command.subcommands.filter((sub) => trail.length === 0 && sub.pluginId !== undefined);
    lines.push('', 'Commands:');
    for (const sub of own) lines.push(`  ${sub.name.padEnd(width)}  ${sub.summary}`);
    if (fromPlugins.length > 0) {
      lines.push('', 'Commands of the plugins:');
      for (const sub of fromPlugins) lines.push(`  ${sub.name.padEnd(width)}  ${sub.summary} (${sub.pluginId})`);
    }
  }
  const options: [string, string][] = [...(command.optionHelp ?? []), ['-h, --help', 'Show this help']];
  if (trail.length === 0) options.push(['-v, --version', 'Print the version']);
  const width = Math.max(14, ...options.map(([flags]) => flags.length));
  lines.push('', 'Options:', ...options.map(([flags, text]) => `  ${flags.padEnd(width)}  ${text}`));
  if (command.subcommands) lines.push('', `Run '${['forgekit', ...trail].join(' ')} <command> --help' for a command's options.`);
  return lines.join('\n');
}

const hintFor = (trail: string[]) => `Run '${['forgekit', ...trail].join(' ')} --help' for usage.`;

export interface CliOptions {
  /** The plugins whose commands are offered and whose kernel commands boot (the reference server's by default). */
  plugins?: readonly ForgePlugin<any>[];
}

/** Runs the command `argv` names, writing to `output`; resolves with the exit status (`serve` resolves once the server runs). */
export async function runCli(argv: string[], output: CliOutput = io, options: CliOptions = {}): Promise<number> {
  io = output;
  composed = options.plugins ?? allPlugins;
  let root: Command;
  try {
    root = rootCommand();
  } catch (error) {
    io.err(`${(error as Error).message}\n`);
    return 1;
  }
  return main(root, argv);
}

async function main(root: Command, argv: string[]): Promise<number> {
  let command = root;
  const trail: string[] = [];
  let rest = argv;
  // `forgekit help token create` is `forgekit token create --help`.
  if (rest[0] === 'help') rest = [...rest.slice(1), '--help'];
  if (rest.length === 0) rest = ['--help'];
  for (;;) {
    const [first, ...after] = rest;
    if (first === '--help' || first === '-h' || (first === 'help' && command.subcommands)) {
      const target = first === 'help' && after.length > 0 ? after : [];
      if (target.length > 0) return main(root, [...trail, ...target, '--help']);
      io.out(`${helpOf(command, trail)}\n`);
      return 0;
    }
    if (trail.length === 0 && (first === '--version' || first === '-v')) {
      io.out(`forgekit ${VERSION} (@forgekit/kernel ${KERNEL_VERSION})\n`);
      return 0;
    }
    if (!command.subcommands) break;
    const sub = command.subcommands.find((candidate) => candidate.name === first && candidate.name !== 'help');
    if (!sub) {
      const what = first === undefined ? 'A command is missing' : first.startsWith('-') ? `Unknown option '${first}'` : `Unknown command '${first}'`;
      io.err(`${what}${trail.length > 0 ? ` for 'forgekit ${trail.join(' ')}'` : ''}. ${hintFor(trail)}\n`);
      return 2;
    }
    command = sub;
    trail.push(sub.name);
    rest = after;
  }

  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: command.positionals === true,
      strict: true,
    }) as { values: Values; positionals: string[] };
  } catch (error) {
    io.err(`${(error as Error).message}. ${hintFor(trail)}\n`);
    return 2;
  }
  if (parsed.values.help || parsed.positionals.includes('help')) {
    io.out(`${helpOf(command, trail)}\n`);
    return 0;
  }
  try {
    await command.run!(parsed.values, parsed.positionals, rest);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}. ${hintFor(trail)}\n`);
      return 2;
    }
    if (error instanceof ConfigError) {
      io.err(`The config is invalid:\n${error.problems.map((problem) => `  - ${problem}`).join('\n')}\n`);
      return 1;
    }
    if (error instanceof ApiError) {
      io.err(`${apiErrorText(error)}\n`);
      return 1;
    }
    io.err(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

/** A service's refusal in words: its message, or each field's problems (`sso_url can't be blank`). */
function apiErrorText(error: ApiError): string {
  const said = error.body.message ?? error.body.error ?? error.text ?? error.message;
  if (typeof said === 'string') return said;
  if (said && typeof said === 'object') {
    return Object.entries(said as Record<string, unknown>)
      .flatMap(([field, problems]) => (Array.isArray(problems) ? problems : [problems]).map((problem) => `${field} ${String(problem)}`))
      .join('\n');
  }
  return error.message;
}
