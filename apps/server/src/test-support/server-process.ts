/** The reference server as production runs it, `node dist/main.js` in a child process, its stdout kept line by line. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const SERVER_MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

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
  /** Complete stdout lines so far. */
  readonly stdout: string[];
  readonly stderr: () => string;
  readonly exited: Promise<number | null>;
  /** The first stdout line that matches, or null when the process exits first. */
  waitForLine(match: (line: string) => boolean): Promise<string | null>;
  /** Sends `signal` (unless the process has exited) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startServerProcess(env: Record<string, string>): ServerProcess {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !NOT_INHERITED.test(name)));
  const child = spawn(process.execPath, [SERVER_MAIN], { env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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
  return {
    stdout,
    stderr: () => stderr,
    exited,
    waitForLine: (match) =>
      new Promise((resolve) => {
        const check = () => {
          const line = stdout.find(match);
          if (line === undefined && !done) return;
          watchers.delete(check);
          resolve(line ?? null);
        };
        watchers.add(check);
        check();
      }),
    stop(signal = 'SIGTERM') {
      if (!done) child.kill(signal);
      return exited;
    },
  };
}
