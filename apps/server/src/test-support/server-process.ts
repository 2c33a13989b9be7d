/** The reference server as production runs it, `node dist/main.js` in a child process, its stdout kept line by line. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const SERVER_MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
export const SERVER_CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
/** The repository's root, where `npm start` runs. */
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Whether the process `pid` still exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Settings of the test run the child must not inherit (vitest's NODE_ENV=test quiets libraries). */
const NOT_INHERITED = /^(FORGEKIT_|PORT$|HOST$|NODE_ENV$|VITEST|TINYPOOL)/;

export const isJsonLine = (line: string) => {
  try {
    return typeof JSON.parse(line) === 'object';
  } catch {
    return false;
  }
};

export interface ServerProcess {
  readonly pid: number;
  /** Complete stdout lines so far. */
  readonly stdout: string[];
  readonly stderr: () => string;
  readonly exited: Promise<number | null>;
  /** Resolves true once `holds(stdout lines)` does, false when the process exits first. */
  waitUntil(holds: (lines: readonly string[]) => boolean): Promise<boolean>;
  /** The first stdout line that matches, or null when the process exits first. */
  waitForLine(match: (line: string) => boolean): Promise<string | null>;
  /** Sends `signal` (unless the process has exited) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** The environment of a child server: this one's, without the test run's own settings. */
export const childEnv = (env: Record<string, string>) => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !NOT_INHERITED.test(name))),
  ...env,
});

export interface ProcessOptions {
  /** Default: `node dist/main.js`. */
  command?: string;
  args?: string[];
  cwd?: string;
}

export function startServerProcess(env: Record<string, string>, options: ProcessOptions = {}): ServerProcess {
  const child = spawn(options.command ?? process.execPath, options.args ?? [SERVER_MAIN], {
    env: childEnv(env),
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const watchers = new Set<() => void>();
  let partial = '';
  let stderr = '';
  let done = false;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
    stdout.push(...lines.filter((line) => line.trim() !== ''));
    for (const watcher of watchers) watcher();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (stderr += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      if (partial.trim() !== '') stdout.push(partial);
      done = true;
      for (const watcher of watchers) watcher();
      resolve(code);
    }),
  );
  const waitUntil = (holds: (lines: readonly string[]) => boolean) =>
    new Promise<boolean>((resolve) => {
      const check = () => {
        const held = holds(stdout);
        if (!held && !done) return;
        watchers.delete(check);
        resolve(held);
      };
      watchers.add(check);
      check();
    });
  return {
    pid: child.pid!,
    stdout,
    stderr: () => stderr,
    exited,
    waitUntil,
    waitForLine: async (match) => ((await waitUntil((lines) => lines.some(match))) ? stdout.find(match)! : null),
    stop(signal = 'SIGTERM') {
      if (!done) child.kill(signal);
      return exited;
    },
  };
}
