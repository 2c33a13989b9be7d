/**
 * Runs the `git` command-line tool: no shell, a fixed environment that ignores the
 * machine's and user's git config, safe settings, and bounded output.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
  '-c', 'core.hooksPath=/dev/null',
  '-c', 'safe.directory=*',
  '-c', 'gc.auto=0',
  '-c', 'receive.autogc=false',
  '-c', 'maintenance.auto=false',
  '-c', 'core.quotePath=false',
  '-c', 'protocol.file.allow=never',
  '-c', 'init.defaultBranch=main',
  // Commits being written wait on private refs; clients never see or touch them.
  '-c', 'transfer.hideRefs=refs/forgekit',
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

/** `git` with text output, trailing newline removed. */
export async function gitText(gitDir: string | null, args: readonly string[], options?: GitOptions): Promise<string> {
  const { stdout } = await git(gitDir, args, options);
  return stdout.toString('utf8').replace(/\n$/, '');
}

/**
 * A git service process (upload-pack, receive-pack) fed `input`, its output collected.
 * Stderr is kept for error reports; a non-zero exit after output is still an answer
 * (the protocol carries its own errors).
 */
export function gitService(args: readonly string[], input: Buffer, env: Record<string, string> = {}, maxOutput = 1024 * 1024 * 1024): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...SAFE_CONFIG, ...args], { env: baseEnv(env), windowsHide: true });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxOutput) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 64 * 1024) stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (size > maxOutput) reject(new GitCommandError(args, code, 'output too large'));
      else resolve({ stdout: Buffer.concat(chunks), stderr, code: code ?? -1 });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
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
