/**
 * A second server process for the multi-process test: a vitest run of its own (so it loads the
 * workspace's TypeScript sources as the tests do) of second-process.pg.test.ts, which boots a
 * kernel on the given database and data directory. The two processes talk through files in a
 * signal directory: `ready`, `deliver-<id>` / `delivered-<id>`, `ran-<id>`, and `stop`.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What second-process.pg.test.ts is started with. */
export const SECOND_PROCESS_ENV = {
  databaseUrl: 'FORGEKIT_MOVES_SECOND_DATABASE_URL',
  dataDir: 'FORGEKIT_MOVES_SECOND_DATA_DIR',
  signalDir: 'FORGEKIT_MOVES_SECOND_SIGNAL_DIR',
} as const;

/** The storages both processes share, under their common data directory. */
export const SHARED_STORAGES = { repositories: { storages: { second: 'second-storage' } } };

const here = dirname(fileURLToPath(import.meta.url));
const vitestCli = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');

export interface SecondProcess {
  /** What it printed, for a failure's message. */
  output: string[];
  /** Its exit code, once it exited. */
  exited: Promise<number | null>;
  kill(): void;
}

export function startSecondProcess(options: { databaseUrl: string; dataDir: string; signalDir: string }): SecondProcess {
  // Its own vitest run, not a worker of this one.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && !key.startsWith('TINYPOOL')));
  const child = spawn(process.execPath, [vitestCli, 'run', join(here, '../moves/second-process.pg.test.ts'), '--reporter=dot'], {
    cwd: join(here, '../../../..'),
    env: {
      ...env,
      [SECOND_PROCESS_ENV.databaseUrl]: options.databaseUrl,
      [SECOND_PROCESS_ENV.dataDir]: options.dataDir,
      [SECOND_PROCESS_ENV.signalDir]: options.signalDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk) => output.push(String(chunk)));
  child.stderr!.on('data', (chunk) => output.push(String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { output, exited, kill: () => child.kill() };
}
