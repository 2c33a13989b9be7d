import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-commands.js';
import { childEnv, isJsonLine, SERVER_CLI, startServerProcess } from './test-support/server-process.js';

/** The CLI's help and usage errors, in-process. */
async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const status = await runCli(argv, { out: (text) => void (out += text), err: (text) => void (err += text) });
  return { status, out, err };
}

const COMMANDS = [
  [],
  ['serve'],
  ['migrate'],
  ['openapi'],
  ['config'],
  ['config', 'check'],
  ['token'],
  ['token', 'create'],
  ['iteration-cadences'],
  ['iteration-cadences', 'list'],
  ['iteration-cadences', 'create'],
  ['iteration-cadences', 'update'],
  ['iteration-cadences', 'delete'],
  ['iteration-cadences', 'schedule'],
  ['jobs'],
  ['jobs', 'list'],
  ['jobs', 'run'],
  ['saml-provider'],
  ['saml-provider', 'show'],
  ['saml-provider', 'set'],
  ['saml-provider', 'delete'],
];

describe('forgekit help', () => {
  it.each(COMMANDS.map((command) => [command.join(' ') || '(top)', command]))('prints the help of %s on stdout and exits 0', async (_name, command) => {
    for (const argv of [
      [...command, '--help'],
      [...command, '-h'],
      ['help', ...command],
    ]) {
      const { status, out, err } = await cli(...argv);
      expect(status, argv.join(' ')).toBe(0);
      expect(out, argv.join(' ')).toMatch(/^Usage:/);
      expect(err, argv.join(' ')).toBe('');
    }
  });

  it('prints the help with no arguments, or `help` after a command, and the version', async () => {
    expect(await cli()).toMatchObject({ status: 0, out: expect.stringContaining('Commands:\n  serve') });
    expect(await cli('token', 'help')).toMatchObject({ status: 0, out: expect.stringContaining('create') });
    expect(await cli('--version')).toMatchObject({ status: 0, out: expect.stringMatching(/^forgekit \d+\.\d+\.\d+ \(@forgekit\/kernel \d+\.\d+\.\d+\)\n$/) });
    expect(await cli('-v')).toMatchObject({ status: 0, err: '' });
  });

  it('refuses an unknown command or option with status 2 and a hint, on stderr', async () => {
    expect(await cli('bogus')).toEqual({ status: 2, out: '', err: "Unknown command 'bogus'. Run 'forgekit --help' for usage.\n" });
    expect(await cli('--bogus')).toEqual({ status: 2, out: '', err: "Unknown option '--bogus'. Run 'forgekit --help' for usage.\n" });
    expect(await cli('token', 'bogus')).toEqual({
      status: 2,
      out: '',
      err: "Unknown command 'bogus' for 'forgekit token'. Run 'forgekit token --help' for usage.\n",
    });
    expect(await cli('config')).toEqual({ status: 2, out: '', err: "A command is missing for 'forgekit config'. Run 'forgekit config --help' for usage.\n" });
    const option = await cli('token', 'create', '--bogus');
    expect(option).toMatchObject({ status: 2, out: '' });
    expect(option.err).toMatch(/^Unknown option '--bogus'.*Run 'forgekit token create --help' for usage\.\n$/);
    expect(await cli('serve', '--workers', 'two')).toMatchObject({
      status: 2,
      err: expect.stringContaining("--workers must be a whole number from 1, not 'two'"),
    });
  });
});

describe('forgekit openapi', { timeout: 60_000 }, () => {
  it('prints the OpenAPI document of the composed routes, or writes it to a file, and writes nothing else', async () => {
    const root = await mkdtemp(join(tmpdir(), 'forgekit-openapi-'));
    const dataDir = join(root, 'data');
    const saved = process.env.FORGEKIT_DATA_DIR;
    process.env.FORGEKIT_DATA_DIR = dataDir;
    try {
      const printed = await cli('openapi');
      expect(printed.status, printed.err).toBe(0);
      const document = JSON.parse(printed.out);
      expect(document).toMatchObject({ openapi: '3.1.0', info: { title: 'forgekit API' } });
      expect(document.paths['/api/v4/projects/{id}/variables'].get.tags).toEqual(['ci-variables']);

      const file = join(root, 'openapi.json');
      const written = await cli('openapi', '--output', file);
      expect(written.status, written.err).toBe(0);
      expect(written.out).toBe('');
      expect(written.err).toMatch(new RegExp(`wrote the OpenAPI document of \\d+ routes to ${file}\n$`));
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(document);
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.FORGEKIT_DATA_DIR;
      else process.env.FORGEKIT_DATA_DIR = saved;
      await rm(root, { recursive: true, force: true });
    }
  });
});

/** The built CLI in a child process, with the config it would read in production. Each starts Node and loads every plugin: a few seconds on a busy machine. */
describe('forgekit (the built command)', { timeout: 90_000 }, () => {
  let root: string;
  let dataDir: string;
  const exec = promisify(execFile);
  const run = async (env: Record<string, string>, ...args: string[]) => {
    try {
      const { stdout, stderr } = await exec(process.execPath, [SERVER_CLI, ...args], { env: childEnv({ FORGEKIT_DATA_DIR: dataDir, ...env }) });
      return { status: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { status: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };
  const withConfig = async (config: unknown) => {
    const file = join(root, `config-${Math.random().toString(36).slice(2)}.json`);
    await writeFile(file, JSON.stringify(config));
    return { FORGEKIT_CONFIG: file };
  };

  beforeAll(async () => {
    if (!existsSync(SERVER_CLI)) throw new Error(`${SERVER_CLI} is missing: run \`npm run build\` first`);
    root = await mkdtemp(join(tmpdir(), 'forgekit-cli-'));
    dataDir = join(root, 'data');
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('config check refuses unknown keys, uncomposed plugins and bad values, naming each path, and writes nothing', async () => {
    const cases: [unknown, string][] = [
      [{ prot: 4000 }, "Invalid server config at 'prot': unknown key"],
      [{ plugins: { core: { reportedVersoin: '16.0.0' } } }, "Plugin 'core' config is invalid at 'reportedVersoin': unknown key"],
      [{ plugins: { nosuchplugin: {} } }, "Invalid server config at 'plugins.nosuchplugin': no plugin 'nosuchplugin' is composed"],
      [{ logLevel: 'verbose' }, "Invalid server config at 'logLevel'"],
      [{ schedules: { '* * * * *': ['pipeline-schedules:tik'] } }, "Unknown job 'pipeline-schedules:tik'"],
    ];
    // Each case is a process of its own, and none writes: they run side by side.
    const answers = await Promise.all(cases.map(async ([config]) => run(await withConfig(config), 'config', 'check')));
    for (const [index, [config, problem]] of cases.entries()) {
      const { status, stdout, stderr } = answers[index]!;
      expect(status, JSON.stringify(config)).toBe(1);
      expect(stdout).toBe('');
      expect(stderr, JSON.stringify(config)).toContain(problem);
    }
    expect(existsSync(dataDir)).toBe(false);
  });

  it('config check accepts a valid config, says which data dir and database it names, and writes nothing', async () => {
    const { status, stdout, stderr } = await run(await withConfig({ port: 4000, plugins: { core: { reportedVersion: '17.0.0' } } }), 'config', 'check');
    expect(status, stderr).toBe(0);
    expect(stdout).toBe('config is valid\n');
    expect(stderr).toBe(`forgekit: data dir ${dataDir}, database ${join(dataDir, 'forgekit.sqlite')} (SQLite)\n`);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('the server refuses the same config as config check, before it writes anything', async () => {
    const server = startServerProcess({ FORGEKIT_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ...(await withConfig({ logLevel: 'verbose' })) });
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toContain("Invalid server config at 'logLevel'");
    expect(existsSync(dataDir)).toBe(false);
  });

  it('migrate prints each migration as it applies it, then finds nothing to do', async () => {
    const first = await run({}, 'migrate');
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/^forgekit: data dir .*\napplying migration kernel:\d+-[a-z-]+\n/);
    expect(first.stdout).toMatch(/^\d+ migrations applied in \d+ ms\n$/);
    expect(Number.parseInt(first.stdout, 10)).toBe(first.stderr.split('\n').filter((line) => line.startsWith('applying migration ')).length);
    expect(await run({}, 'migrate')).toMatchObject({ status: 0, stdout: 'migrations are up to date\n' });
    expect(await readdir(dataDir)).toEqual(expect.arrayContaining(['forgekit.sqlite', 'secrets.key']));
  });

  it('token create prints only the secret on stdout', async () => {
    const { status, stdout, stderr } = await run({}, 'token', 'create', '--scopes', 'api', '--name', 'ci');
    expect(status, stderr).toBe(0);
    expect(stdout).toMatch(/^\S{20,}\n$/);
  });

  it('jobs run runs a job once and says so', async () => {
    expect((await run({}, 'jobs', 'list')).stdout.split('\n')).toContain('storage-moves:recover');
    const { status, stderr } = await run({}, 'jobs', 'run', 'storage-moves:recover');
    expect(status, stderr).toBe(0);
    expect(stderr).toMatch(/running job storage-moves:recover\.\.\.\njob storage-moves:recover finished in \d+ ms\n$/);
    expect(await run({}, 'jobs', 'run', 'nope:nothing')).toMatchObject({ status: 2, stderr: expect.stringContaining("Unknown job 'nope:nothing'") });
  });

  it('serve runs the built server until SIGTERM, then exits 0', async () => {
    const server = startServerProcess({ FORGEKIT_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' }, { args: [SERVER_CLI, 'serve'] });
    const line = await server.waitForLine((text) => isJsonLine(text) && JSON.parse(text).msg === 'listening');
    expect(line, server.stderr()).not.toBeNull();
    expect((await fetch(`${JSON.parse(line!).url}/-/readiness`)).status).toBe(200);
    expect(await server.stop('SIGTERM')).toBe(0);
  });
});
