/**
 * Runs the `git` command-line tool: no shell, a fixed environment that ignores the
 * machine's and user's git config, safe settings, and bounded output.
 */
import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';

/** Output above this fails the command rather than exhausting memory. */
export const DEFAULT_MAX_OUTPUT = 64 * 1024 * 1024;

export interface GitOptions {
  /** Bytes or text written to the command's standard input. */
  input?: Buffer | string;
  /** Variables added to the fixed environment (author, index file, protocol). */
  env?: Record<string, string>;
  maxOutput?: number;
  /** Exit codes that are answers rather than failures (e.g. 1 for "not found"). */
  okCodes?: readonly number[];
}

export interface GitResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}

export class GitCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args.filter((arg) => !arg.startsWith('--git-dir=')).join(' ')} failed (${code}): ${stderr.trim()}`);
  }
}

/** Settings every invocation gets: no hooks, no prompts, no automatic maintenance. */
const SAFE_CONFIG = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'safe.directory=*',
  '-c',
  'gc.auto=0',
  '-c',
  'receive.autogc=false',
  '-c',
  'maintenance.auto=false',
  '-c',
  'core.quotePath=false',
  '-c',
  'protocol.file.allow=never',
  '-c',
  'init.defaultBranch=main',
  // Commits being written wait on private refs; clients never see or touch them.
  '-c',
  'transfer.hideRefs=refs/forgekit',
];

let home: string | undefined;
/** An empty HOME so no user config or credential helper is ever read. */
function gitHome() {
  home ??= mkdtempSync(join(tmpdir(), 'forgekit-git-home-'));
  return home;
}

function baseEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: gitHome(),
    LANG: 'C',
    LC_ALL: 'C',
    TZ: 'UTC',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_LITERAL_PATHSPECS: '1',
    GIT_AUTHOR_NAME: 'forgekit',
    GIT_AUTHOR_EMAIL: 'forgekit@localhost',
    GIT_COMMITTER_NAME: 'forgekit',
    GIT_COMMITTER_EMAIL: 'forgekit@localhost',
    ...extra,
  };
}

/** Runs `git <args>` against a repository (or none when `gitDir` is null). */
export function git(gitDir: string | null, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  const fullArgs = [...SAFE_CONFIG, ...(gitDir ? [`--git-dir=${gitDir}`] : []), ...args];
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      fullArgs,
      { env: baseEnv(options.env), encoding: 'buffer', maxBuffer: options.maxOutput ?? DEFAULT_MAX_OUTPUT, windowsHide: true },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        const errText = stderr.toString('utf8');
        if (code === 0 || (code !== null && options.okCodes?.includes(code))) {
          resolve({ stdout, stderr: errText, code });
        } else {
          reject(new GitCommandError(args, code, errText || (error?.message ?? '')));
        }
      },
    );
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(options.input ?? '');
  });
}

/**
 * Starts `git <args>` against a repository as a long-lived child with piped stdio (same
 * environment and safe settings as `git`); the caller speaks its stdin/stdout protocol.
 */
export function spawnGit(gitDir: string, args: readonly string[]): ChildProcessWithoutNullStreams {
  return spawn('git', [...SAFE_CONFIG, `--git-dir=${gitDir}`, ...args], { env: baseEnv(), windowsHide: true });
}

/**
 * Bytes of arguments one command may take from a list a request supplies. The system
 * limits argv as a whole (and each argument to 128 KiB), so long lists are split over
 * several invocations rather than risking E2BIG.
 */
const ARGUMENT_BUDGET = 64 * 1024;

/** Splits a list of arguments into runs that each fit the argument budget. */
export function argumentChunks(values: readonly string[], budget = ARGUMENT_BUDGET): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const value of values) {
    const bytes = Buffer.byteLength(value) + 1;
    if (current.length > 0 && size + bytes > budget) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(value);
    size += bytes;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** `git` with text output, trailing newline removed. */
export async function gitText(gitDir: string | null, args: readonly string[], options?: GitOptions): Promise<string> {
  const { stdout } = await git(gitDir, args, options);
  return stdout.toString('utf8').replace(/\n$/, '');
}

/** What a service process wrote to stderr, kept for error reports. */
const STDERR_KEPT = 64 * 1024;

export interface ServiceProcess {
  /**
   * git's output, once git has written its first byte or exited. Rejects with the input's
   * error when the request body failed first (a broken gzip stream, an aborted upload):
   * the service programs read their whole request before they answer, so an input error
   * is known before anything has been sent.
   */
  output: Promise<Readable>;
  /** Resolves when git has exited, with its exit code and the start of its stderr. */
  exited: Promise<{ code: number | null; stderr: string }>;
}

/**
 * A git service process (upload-pack, receive-pack) fed `input` as it arrives, its output
 * passed on as git writes it: both ways with backpressure, nothing held whole in memory.
 * Stdout is read only as fast as the consumer takes it; when the consumer stops (the
 * client went away) git is killed.
 */
export function runGitService(
  args: readonly string[],
  input: Readable,
  options: { env?: Record<string, string>; config?: readonly string[] } = {},
): ServiceProcess {
  const child = spawn('git', [...SAFE_CONFIG, ...(options.config ?? []), ...args], { env: baseEnv(options.env), windowsHide: true });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < STDERR_KEPT) stderr += chunk.toString('utf8');
  });
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr }));
  });
  exited.catch(() => undefined);

  let inputFailed!: (error: unknown) => void;
  const inputError = new Promise<never>((_, reject) => (inputFailed = reject));
  inputError.catch(() => undefined);
  input.once('error', (error) => {
    inputFailed(error);
    child.kill('SIGKILL');
  });
  // git may stop reading early (it refused the request); the rest of the input is not needed.
  child.stdin.on('error', () => input.unpipe(child.stdin));
  input.pipe(child.stdin);

  const output = (async (): Promise<Readable> => {
    const chunks = child.stdout[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    const first = await Promise.race([chunks.next(), inputError]);
    async function* rest() {
      try {
        if (!first.done) yield first.value;
        for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    }
    const stream = Readable.from(rest(), { objectMode: false });
    // A consumer that never reads (a HEAD request, a failed send) still ends git.
    stream.once('close', () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    return stream;
  })();
  output.catch(() => child.kill('SIGKILL'));
  return { output, exited };
}

/** The installed git's version, or a clear error when git is missing or too old. */
export async function checkGitInstalled(binary = 'git'): Promise<string> {
  let text: string;
  try {
    text = await new Promise<string>((resolve, reject) =>
      execFile(binary, ['--version'], { env: baseEnv(), encoding: 'utf8' }, (error, stdout) => (error ? reject(error) : resolve(stdout.trim()))),
    );
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'it was not found on PATH' : (error as Error).message;
    throw new Error(`The repositories plugin needs the git command-line tool (2.28 or newer), but ${reason}. Install git and restart the server.`);
  }
  const match = /(\d+)\.(\d+)/.exec(text);
  const [major, minor] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (major < 2 || (major === 2 && minor < 28)) {
    throw new Error(`The repositories plugin needs git 2.28 or newer; found '${text}'.`);
  }
  return text;
}
