/**
 * Every published package as npm ships it: `npm pack` (whose prepack builds it and drops the
 * source condition), the tarball's contents and manifest, and a host app installed from the
 * tarballs into an empty folder, booted and called.
 *
 * The host installs with `--prefer-offline` (npm's cache, else the registry) and
 * `--ignore-scripts`: the SQLite drivers' compiled binaries are copied from this repository's
 * install, which has the same versions, instead of compiling them again (minutes) or
 * downloading prebuilt ones.
 */
import { execFile, spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const exec = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));

interface Packed {
  name: string;
  filename: string;
  files: { path: string }[];
}

/** This environment without npm's and vitest's own settings, so npm in the host folder behaves as a user's would. */
const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm_|VITEST|TINYPOOL|FORGEKIT_|NODE_ENV$)/i.test(name)));

async function publishedDirs(): Promise<string[]> {
  const dirs: string[] = [];
  for (const parent of ['packages', 'plugins']) {
    for (const name of (await readdir(join(root, parent))).sort()) {
      const manifest = join(root, parent, name, 'package.json');
      if (existsSync(manifest) && !JSON.parse(await readFile(manifest, 'utf8')).private) dirs.push(`${parent}/${name}`);
    }
  }
  return dirs;
}

/** The files of the .d.ts graph reachable from `entries`, and the bare modules they import. */
async function declarationImports(dir: string, entries: string[]): Promise<Set<string>> {
  const seen = new Set<string>();
  const bare = new Set<string>();
  const visit = async (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = await readFile(file, 'utf8');
    for (const [, specifier] of text.matchAll(/(?:from\s+|import\s*\(\s*)['"]([^'"]+)['"]/g)) {
      if (specifier!.startsWith('.')) await visit(resolve(dirname(file), specifier!.replace(/\.js$/, '.d.ts')));
      else bare.add(specifier!);
    }
  };
  for (const entry of entries) await visit(join(dir, entry));
  return bare;
}

const HOST_APP = `import { createServer } from 'node:http';
import { createKernel, loadConfig } from '@forgekit/kernel';
import { ciVariablesPlugin } from '@forgekit/plugin-ci-variables';
import { corePlugin } from '@forgekit/plugin-core';
import { planLimitsPlugin } from '@forgekit/plugin-plan-limits';

const plugins = process.argv.includes('--without-plan-limits') ? [corePlugin, ciVariablesPlugin] : [corePlugin, planLimitsPlugin, ciVariablesPlugin];
const kernel = await createKernel({ plugins, config: loadConfig({ plugins }) });
await kernel.start();
const server = createServer(kernel.nodeListener).listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
process.on('SIGTERM', () => server.close(() => kernel.stop().then(() => process.exit(0))));
`;

describe('the published packages', () => {
  let work: string;
  let packed: Packed[];
  const timings: Record<string, number> = {};

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'forgekit-packed-'));
    const started = Date.now();
    const dirs = await publishedDirs();
    const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', work, ...dirs.flatMap((dir) => ['-w', dir])], {
      cwd: root,
      env: cleanEnv(),
      maxBuffer: 64 * 1024 * 1024,
    });
    packed = JSON.parse(stdout);
    timings.pack = Date.now() - started;
  }, 300_000);

  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
    console.info(`packed-packages: pack ${timings.pack} ms, install ${timings.install} ms`);
  });

  const manifestOf = async (entry: Packed) => {
    const dir = join(work, 'manifests', entry.name);
    await mkdir(dir, { recursive: true });
    await exec('tar', ['-xzf', join(work, entry.filename), '-C', dir, 'package/package.json']);
    return JSON.parse(await readFile(join(dir, 'package', 'package.json'), 'utf8'));
  };

  it('packs every published package: its build, README and LICENSE, and no sources or tests', async () => {
    expect(packed.map((entry) => entry.name).sort()).toEqual(
      (await publishedDirs()).map((dir) => JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')).name).sort(),
    );
    for (const entry of packed) {
      const paths = entry.files.map((file) => file.path);
      expect(paths, entry.name).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts']));
      expect(
        paths.filter((path) => path.startsWith('src/') || /\.test\.(js|d\.ts)$/.test(path)),
        entry.name,
      ).toEqual([]);
    }
  });

  it('ships manifests without the source condition, with main, types, repository, engines and the MIT license', async () => {
    for (const entry of packed) {
      const manifest = await manifestOf(entry);
      expect(JSON.stringify(manifest.exports), entry.name).not.toContain('@forgekit/source');
      expect(manifest, entry.name).toMatchObject({
        license: 'MIT',
        main: './dist/index.js',
        types: './dist/index.d.ts',
        engines: { node: '>=20.19.0' },
        repository: { type: 'git', directory: expect.stringMatching(/^(packages|plugins)\//) },
        homepage: expect.any(String),
        bugs: { url: expect.any(String) },
      });
    }
  });

  describe('the kernel', () => {
    let dir: string;
    beforeAll(async () => {
      dir = join(work, 'kernel');
      await mkdir(dir);
      await exec('tar', ['-xzf', join(work, packed.find((entry) => entry.name === '@forgekit/kernel')!.filename), '-C', dir]);
      dir = join(dir, 'package');
    });

    it('ships source maps that carry their sources', async () => {
      const map = JSON.parse(await readFile(join(dir, 'dist', 'kernel.js.map'), 'utf8'));
      expect(map.sourcesContent).toHaveLength(map.sources.length);
      expect(map.sourcesContent[0]).toContain('export async function createKernel');
    });

    it('declares a public API that imports nothing from h3', async () => {
      const imports = await declarationImports(dir, ['dist/index.d.ts', 'dist/orm.d.ts']);
      expect(imports.size).toBeGreaterThan(0);
      expect([...imports].filter((name) => name === 'h3' || name.startsWith('h3/'))).toEqual([]);
    });

    it('makes the PostgreSQL drivers optional peer dependencies', async () => {
      const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
      for (const name of ['@mikro-orm/postgresql', 'pg', 'pg-boss']) {
        expect(manifest.dependencies?.[name], name).toBeUndefined();
        expect(manifest.peerDependenciesMeta?.[name], name).toEqual({ optional: true });
      }
    });
  });

  describe('a host app installed from the tarballs', () => {
    let host: string;
    const tarball = (name: string) => `file:${join(work, packed.find((entry) => entry.name === name)!.filename)}`;
    const run = (...args: string[]) =>
      spawn(process.execPath, ['host.mjs', ...args], {
        cwd: host,
        env: { ...cleanEnv(), FORGEKIT_DATA_DIR: join(host, 'data'), FORGEKIT_ROOT_TOKEN: 'fkpat-packed-host-root-token', FORGEKIT_LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });

    beforeAll(async () => {
      host = join(work, 'host');
      await mkdir(host);
      await writeFile(
        join(host, 'package.json'),
        JSON.stringify({
          name: 'forgekit-host',
          private: true,
          type: 'module',
          dependencies: Object.fromEntries(
            ['@forgekit/kernel', '@forgekit/markdown', '@forgekit/plugin-core', '@forgekit/plugin-plan-limits', '@forgekit/plugin-ci-variables'].map((name) => [
              name,
              tarball(name),
            ]),
          ),
          allowScripts: { 'better-sqlite3': true, sqlite3: true },
        }),
      );
      await writeFile(join(host, 'host.mjs'), HOST_APP);
      const started = Date.now();
      await exec('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
        cwd: host,
        env: cleanEnv(),
        maxBuffer: 16 * 1024 * 1024,
      });
      for (const driver of ['better-sqlite3', 'sqlite3']) {
        const ours = JSON.parse(await readFile(join(root, 'node_modules', driver, 'package.json'), 'utf8')).version;
        const theirs = JSON.parse(await readFile(join(host, 'node_modules', driver, 'package.json'), 'utf8')).version;
        if (ours !== theirs) throw new Error(`${driver}: the host installed ${theirs}, this repository has ${ours}; cannot reuse its build`);
        await cp(join(root, 'node_modules', driver, 'build'), join(host, 'node_modules', driver, 'build'), { recursive: true });
      }
      timings.install = Date.now() - started;
    }, 300_000);

    it('installs without the PostgreSQL drivers', () => {
      for (const name of ['@mikro-orm/postgresql', 'pg', 'pg-boss']) expect(existsSync(join(host, 'node_modules', name)), name).toBe(false);
    });

    it('boots core and ci-variables with plan-limits and answers requests', async () => {
      const child = run();
      try {
        const port = await new Promise<number>((resolvePort, reject) => {
          let out = '';
          let err = '';
          child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
            out += chunk;
            if (out.includes('\n')) resolvePort(JSON.parse(out.split('\n')[0]!).port);
          });
          child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (err += chunk));
          child.on('exit', (code) => reject(new Error(`the host exited with ${code}: ${err}`)));
        });
        const headers = { 'PRIVATE-TOKEN': 'fkpat-packed-host-root-token', 'Content-Type': 'application/json' };
        const user = await fetch(`http://127.0.0.1:${port}/api/v4/user`, { headers });
        expect(user.status).toBe(200);
        expect(await user.json()).toMatchObject({ username: 'root' });
        const variable = await fetch(`http://127.0.0.1:${port}/api/v4/admin/ci/variables`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ key: 'PACKED', value: 'yes' }),
        });
        expect(variable.status).toBe(201);
        const exited = new Promise<number | null>((resolveExit) => child.on('exit', resolveExit));
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    });

    it('names the package to install when plan-limits is not composed', async () => {
      const child = run('--without-plan-limits');
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (err += chunk));
      const code = await new Promise<number | null>((resolveExit) => child.on('exit', resolveExit));
      expect(code).not.toBe(0);
      expect(err).toContain(
        "requires service 'plan-limits.limits', which no plugin provides: add the plugin from the npm package @forgekit/plugin-plan-limits",
      );
    });
  });
});
