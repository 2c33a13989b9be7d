/**
 * A test file run as an operating-system process of its own, for tests of several server
 * processes sharing one database: a vitest run of its own (not a worker of the caller's run),
 * so it loads the workspace's TypeScript sources as the tests do. The processes talk through
 * what the test file and its caller agree on (files in a signal directory, the database).
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface TestProcess {
  /** What it printed, for a failure's message. */
  output: string[];
  /** Its exit code, once it exited. */
  exited: Promise<number | null>;
  kill(): void;
}

export interface TestProcessOptions {
  /** The test file to run, an absolute path. */
  testFile: string;
  /** The folder vitest runs in: the one holding the vitest config. */
  cwd: string;
  /** Added to this process's environment. */
  env: Record<string, string>;
}

export function startTestProcess({ testFile, cwd, env }: TestProcessOptions): TestProcess {
  const vitestCli = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
  // Its own vitest run: the variables that would make it a worker of this one are left out.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && !key.startsWith('TINYPOOL')));
  const child = spawn(process.execPath, [vitestCli, 'run', testFile, '--reporter=dot'], {
    cwd,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk) => output.push(String(chunk)));
  child.stderr!.on('data', (chunk) => output.push(String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { output, exited, kill: () => child.kill() };
}
